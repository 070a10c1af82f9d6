#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# report-html-map.sh BUILD_DIR: the HTML report of the sim tier's faulty
# 324-HCA fabric (tests/sim/scenario-faulty.sh), opened in headless Chromium
# over the DevTools protocol (tests/e2e/cdp_page.py):
# - the fabric map has one element per cable of the simulated fabric (the
#   spec's cables and the unexpected one, absent ones included) and one per
#   HCA port;
# - every injected faulty cable (faults.txt) carries its finding's category
#   as a class;
# - the heatmap (of pair records written here, expected rate unknown as on
#   Soft-RoCE) has axis titles, leaf labels and a legend; the histograms say
#   `expected rate unknown`;
# - no console error or warning, no request but the page itself;
# - a screenshot BUILD_DIR/report.png of sensible size.
# Environment: IBPROOF, GEN_FATTREE (as for the sim tier).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: report-html-map.sh BUILD_DIR}
chrome=$(command -v chromium || command -v chromium-browser || true)
for tool in "$chrome" python3 jq; do
	[ -n "$tool" ] && command -v "$tool" >/dev/null || {
		echo "report-html-map: chromium, python3 or jq missing (scripts/install-deps)" >&2
		exit 77
	}
done
work=$(mktemp -d /tmp/ibproof-e2e-htmlmap.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$here/../sim/scenario-faulty.sh" "$work" >"$work/scenario.log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
	tail -20 "$work/scenario.log" >&2
	exit $rc # 77 when ibsim or opensm is missing
fi

# Pair records between the HCA ports discovered: each with the next and with
# the one 18 further on (another leaf), no expected rate (as on Soft-RoCE).
python3 - "$work/discover.jsonl" >"$work/pairs.jsonl" <<'EOF'
import json, sys
ports = {}
for line in open(sys.argv[1]):
    rec = json.loads(line)
    for end in (rec.get("a"), rec.get("b")) if rec["kind"] == "link" else ():
        if end.get("ca"):
            ports[end["host"]] = {"host": end["host"], "ca": end["ca"],
                                  "port": end["port"], "guid": end["port_guid"]}
hosts = sorted(ports)
for i, h in enumerate(hosts):
    for step in (1, 18):
        g = 9.5 + (i * 7 % 10) / 100
        print(json.dumps({"schema": "ibproof/1", "kind": "pair",
            "time": "2026-12-03T00:00:00.000Z", "host": h, "version": "0.1.0",
            "round": step, "test": "write", "dir": "uni", "a": ports[h],
            "b": ports[hosts[(i + step) % len(hosts)]], "gbps": g,
            "gbps_min": g - 0.1, "expected_gbps": 0.0, "status": "ok"}))
EOF
"$IBPROOF" report "$work/discover.jsonl" "$work/check.jsonl" \
	"$work/counters.jsonl" "$work/pairs.jsonl" \
	--node-name-map "$work/node-name-map" --html "$work/report.html" \
	>"$work/report.txt"
rc=$?
[ $rc -eq 1 ] || { echo "report exit $rc, expected 1" >&2; exit 1; }

read -r -d '' js <<'EOF'
(function () {
  var t = function (q) { return Array.prototype.map.call(
    document.querySelectorAll(q), function (e) { return e.textContent; }); };
  var shown = function (id) { return Array.prototype.filter.call(
    document.getElementById(id).rows, function (r, i) { return i && !r.hidden; })
    .map(function (r) { return r.cells[1].textContent; }); };
  var f = document.getElementById('disable-filter');
  f.value = 'SWAP'; f.dispatchEvent(new Event('input'));
  var filtered = shown('disable');
  f.value = ''; f.dispatchEvent(new Event('input'));
  var th = document.getElementById('findings').rows[0].cells[1];
  th.click(); var up = shown('findings'); th.click(); var down = shown('findings');
  return {
    filtered: filtered, sorted_up: up, sorted_down: down,
    cables: Array.prototype.map.call(
      document.querySelectorAll('#fabric-map [data-ends]'), function (e) {
        return { ends: e.getAttribute('data-ends'),
                 cls: e.getAttribute('class').split(' '),
                 title: e.querySelector('title').textContent }; }),
    hcas: Array.prototype.map.call(
      document.querySelectorAll('#fabric-map .hca'), function (e) {
        return e.getAttribute('data-port'); }),
    axes: t('#heatmap .hm-axis'), labels: t('#heatmap .hm-label'),
    legend: document.querySelectorAll('#heatmap .hm-legend rect').length,
    cells: document.querySelectorAll('#heatmap .hm-cell').length,
    captions: t('figcaption'),
    status: document.getElementById('script-status').textContent
  };
})()
EOF
timeout 90 python3 "$here/cdp_page.py" "$chrome" "$work/report.html" \
	"$build/report.png" "$js" >"$work/page.json" ||
	{ echo "report-html-map: chromium did not open the page" >&2; exit 1; }

python3 - "$work/page.json" "$work/spec.csv" "$work/faults.txt" <<'EOF'
import collections, csv, json, sys
page = json.load(open(sys.argv[1]))
v, fails = page["value"], []
def fail(msg):
    fails.append(msg)
def switch_ends(ends):  # a cable's identity: its switch end(s)
    return "|".join(sorted(e for e in ends if " " not in e.rsplit(":", 1)[0]))

spec = [r for r in csv.reader(open(sys.argv[2])) if r and not r[0].startswith("#")][1:]
want = collections.Counter(switch_ends(["%s:%s" % (r[0], r[1]), "%s:%s" % (r[2], r[3])])
                           for r in spec)
faults = [l.strip().split("|") for l in open(sys.argv[3]) if l.strip()]
for f in faults:
    if f[0] == "unexpected-link":
        want[switch_ends(f[1:])] += 1
got = collections.Counter(switch_ends(c["ends"].split("|")) for c in v["cables"])
if len(v["cables"]) != sum(want.values()):
    fail("%d cables on the map, the fabric has %d" % (len(v["cables"]), sum(want.values())))
if got != want:
    fail("cables differ: missing %s, extra %s" % (list((want - got).keys())[:5],
                                                  list((got - want).keys())[:5]))
hcas = {"%s:%s" % (r[0], r[1]) for r in spec if " " in r[0]}
if len(v["hcas"]) != len(hcas) or set(v["hcas"]) != hcas:
    fail("%d HCA ports on the map (%d distinct), the fabric has %d" %
         (len(v["hcas"]), len(set(v["hcas"])), len(hcas)))
by_end = {}
for c in v["cables"]:
    for e in c["ends"].split("|"):
        by_end.setdefault(e, []).append(c)
for f in faults:
    cat, ends = f[0], f[1:]
    for e in ends:
        if " " in e.rsplit(":", 1)[0]:
            continue  # the switch end names the cable as found
        cs = by_end.get(e, [])
        if len(cs) != 1 or cat not in cs[0]["cls"]:
            fail("%s at %s: map cable %s" % (cat, e, [(c["ends"], c["cls"]) for c in cs]))
        elif cat != "swapped" and cs[0]["ends"].split("|") != sorted(ends):
            fail("%s: map cable %s, injected %s" % (cat, cs[0]["ends"], sorted(ends)))
        elif not all(x.split(":")[0] in cs[0]["title"] for x in cs[0]["ends"].split("|")):
            fail("%s: hover title does not name both ends: %s" % (cat, cs[0]["title"]))
if not any(a.startswith("port (") for a in v["axes"]) or \
        not any(a.startswith("partner port (") for a in v["axes"]):
    fail("heatmap axis titles: %s" % v["axes"])
if "leaf01" not in v["labels"] or v["cells"] == 0 or v["legend"] < 2:
    fail("heatmap: %d cells, legend %d swatches, labels %s" %
         (v["cells"], v["legend"], v["labels"][:5]))
if not v["captions"] or not all(c.startswith("expected rate unknown") for c in v["captions"]):
    fail("histogram captions: %s" % v["captions"])
if v["filtered"] != ["swap-cables"]:
    fail("disable list filtered by 'SWAP' shows %s" % v["filtered"])
if v["sorted_up"] != sorted(v["sorted_up"]) or v["sorted_down"] != sorted(v["sorted_up"])[::-1] \
        or len(set(v["sorted_up"])) < 2:
    fail("findings sorted by category: %s, then %s" % (v["sorted_up"], v["sorted_down"]))
if page["requests"]:
    fail("network requests: %s" % page["requests"])
if page["console"]:
    fail("console: %s" % page["console"])
s = page["screenshot"]
if s["width"] < 1000 or s["height"] < 1500 or s["bytes"] < 100000:
    fail("screenshot %dx%d, %d bytes" % (s["width"], s["height"], s["bytes"]))
for m in fails:
    print("FAIL: " + m, file=sys.stderr)
if fails:
    sys.exit(1)
print("report-html-map: %d cables, %d HCA ports, %d faults classed, %d heatmap cells, "
      "screenshot %dx%d %d bytes" % (len(v["cables"]), len(v["hcas"]), len(faults),
      v["cells"], s["width"], s["height"], s["bytes"]))
EOF
rc=$?
[ $rc -eq 0 ] || { trap - EXIT; echo "report-html-map: files in $work kept" >&2; }
exit $rc

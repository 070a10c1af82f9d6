#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# report-html-bundles.sh IBPROOF: the fabric map at 4,096 HCA ports (128
# leaves x 32 hosts, 16 spines, link records written here) draws one line
# per switch pair and one block per leaf, says so, and a click on the
# bundle of a degraded cable shows its two cables, the degraded one with
# its class; in headless Chromium with no console message or request.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ibproof=${1:?usage: report-html-bundles.sh IBPROOF}
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ] || ! command -v python3 >/dev/null; then
	echo "report-html-bundles: chromium or python3 missing (scripts/install-deps)" >&2
	exit 77
fi
work=$(mktemp -d /tmp/ibproof-e2e-bundles.XXXXXX)
trap 'rm -rf "$work"' EXIT

python3 - >"$work/links.jsonl" <<'EOF'
import json
def rec(kind, **kw):
    return json.dumps(dict({"schema": "ibproof/1", "kind": kind,
        "time": "2026-12-03T00:00:00.000Z", "host": "gen", "version": "0.1.0"}, **kw))
def sw(name, guid, port):
    return {"node": name, "port": port, "type": "switch", "guid": "0x%016x" % guid, "name": name}
link = dict(width="4x", speed="NDR", state="ACTIVE", phys_state="LinkUp")
n = 0
for l in range(128):
    leaf = "leaf%03d" % (l + 1)
    for h in range(32):
        n += 1
        host, g = "node%04d" % n, 0x100000 + n * 16
        print(rec("link", a={"node": host + " mlx5_0", "port": 1, "type": "ca",
                             "guid": "0x%016x" % g, "host": host, "ca": "mlx5_0",
                             "port_guid": "0x%016x" % (g + 1), "name": host + " mlx5_0"},
                  b=sw(leaf, 0x10000 + l, h + 1), **link))
    # two cables to each of 16 spines; each half of the leaves has its own
    # 16 spines, so a spine has 128 cabled ports (a node has at most 254)
    for u in range(32):
        s = (l // 64) * 16 + u % 16
        print(rec("link", a=sw(leaf, 0x10000 + l, 33 + u),
                  b=sw("spine%02d" % (s + 1), 0x20000 + s, l % 64 * 2 + u // 16 + 1), **link))
print(rec("finding", severity="fail", category="degraded-width",
          subject={"a": sw("leaf005", 0x10004, 40), "b": sw("spine08", 0x20007, 9)},
          evidence={}, action="reseat", message="leaf005 port 40 - spine08 port 9 runs at 1x"))
EOF
"$ibproof" report "$work/links.jsonl" --html "$work/report.html" >"$work/report.txt"
rc=$?
[ $rc -eq 1 ] || { echo "report exit $rc, expected 1" >&2; exit 1; }

read -r -d '' js <<'EOF'
(function () {
  var q = function (s) { return document.querySelectorAll(s); };
  var bad = q('#fabric-map .bundle-line.f-fail');
  var m = bad[0].parentNode.querySelector('.members');
  var before = m.getAttribute('display');
  bad[0].dispatchEvent(new MouseEvent('click', { bubbles: true }));
  return { bundles: q('#fabric-map .bundle-line').length, bad: bad.length,
    groups: q('#fabric-map .hca-group').length, cables: q('#fabric-map .cable').length,
    hcas: q('#fabric-map .hca').length, before: before, after: m.getAttribute('display'),
    members: Array.prototype.map.call(m.querySelectorAll('.cable'), function (c) {
      return c.getAttribute('data-ends') + ' ' + c.getAttribute('class'); }),
    title: bad[0].textContent, note: document.getElementById('fabric-map').nextElementSibling.textContent };
})()
EOF
timeout 90 python3 "$here/cdp_page.py" "$chrome" "$work/report.html" \
	"$work/report.png" "$js" >"$work/page.json" ||
	{ echo "report-html-bundles: chromium did not open the page" >&2; exit 1; }
python3 - "$work/page.json" <<'EOF'
import json, sys
page = json.load(open(sys.argv[1]))
v, fails = page["value"], []
want = {"bundles": 128 * 16 + 128, "bad": 1, "groups": 128, "cables": 8192, "hcas": 4096,
        "before": "none", "after": None}
for k, x in want.items():
    if v[k] != x:
        fails.append("%s: %r, expected %r" % (k, v[k], x))
if len(v["members"]) != 2 or \
        "leaf005:40|spine08:9 cable degraded-width f-fail" not in v["members"]:
    fails.append("members of the bundle: %s" % v["members"])
if "2 cables, 1 with findings" not in v["title"] or "Above 1,024 HCA ports" not in v["note"]:
    fails.append("bundle title %r, note %r" % (v["title"], v["note"]))
if page["requests"] or page["console"]:
    fails.append("requests %s, console %s" % (page["requests"], page["console"]))
for f in fails:
    print("FAIL: " + f, file=sys.stderr)
sys.exit(1 if fails else 0)
EOF

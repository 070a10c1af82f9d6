#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# blamed-ports.sh IBPROOF RECORDS... [-- REPORT_OPTION...]
# One judge, one verdict: the ports burnin blamed (its `fail` findings
# low-bandwidth, intermittent, completion-errors in RECORDS) must be
# exactly the ports `ibproof report RECORDS` blames (its --json ports[]
# with blamed true), and the cables burnin blamed or found ambiguous (its
# `fail` findings bad-cable, cable-or-port and ambiguous-cables, with both
# ends of each cable and, for an ambiguous one, every candidate of
# evidence.candidates and evidence.or_port) must be exactly the report's (the same
# findings in its --json findings[]: the report judges the cables again
# and leaves burnin's out). The report gets no judging options (it reads them
# from burnin's run start records) unless REPORT_OPTIONs are given. Prints
# both sets; exit 0 when they are equal, 1 when they differ, 2 on a usage
# or report error.
set -u
bin=${1:?usage: blamed-ports.sh IBPROOF RECORDS... [-- REPORT_OPTION...]}
shift
files=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	files+=("$1")
	shift
done
[ $# -gt 0 ] && shift
[ ${#files[@]} -gt 0 ] || { echo "blamed-ports.sh: no record files" >&2; exit 2; }
tmp=$(mktemp -d /tmp/ibproof-blamed-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

"$bin" report "${files[@]}" "$@" --json "$tmp/report.json" >"$tmp/out" 2>&1
rc=$?
if [ $rc -gt 1 ] || [ ! -s "$tmp/report.json" ]; then
	echo "blamed-ports.sh: ibproof report exit $rc:" >&2
	cat "$tmp/out" >&2
	exit 2
fi
python3 - "$tmp/report.json" "${files[@]}" <<'PY'
import json, sys

PAIR_KINDS = {"low-bandwidth", "intermittent", "completion-errors"}
CABLE_KINDS = {"bad-cable", "cable-or-port", "ambiguous-cables"}

def key(ref):
    return "%s %s port %s" % (ref.get("host"), ref.get("ca"), ref.get("port"))

def end(ref):
    return "%s(%s):%s" % (ref.get("node"), ref.get("guid"), ref.get("port"))

def cable_text(c):
    return "%s->%s" % (end(c.get("a") or {}), end(c.get("b") or {}))

def cable_key(finding):
    sub = finding.get("subject") or {}
    ev = finding.get("evidence") or {}
    if sub.get("a"):
        text = "%s %s" % (finding["category"], cable_text(sub))
    else:
        text = finding["category"]
    for c in ev.get("candidates") or []: # a locate finding names them all
        text += " | " + (cable_text(c) if c.get("kind") == "cable" else key(c))
    if ev.get("or_port"):
        text += " or %s" % key(ev["or_port"])
    if "retest" in ev:
        text += " retest %s" % (
            "none" if not ev["retest"] else
            "%s with %s" % (key(ev["retest"]["a"]), key(ev["retest"]["b"])))
    return text

def cable_finding(rec):
    return rec.get("severity") == "fail" and rec.get("category") in CABLE_KINDS

def compare(what, burnin, report):
    print("burnin %s: %s" % (what, ", ".join(sorted(burnin)) or "none"))
    print("report %s: %s" % (what, ", ".join(sorted(report)) or "none"))
    if burnin == report:
        return True
    print("DIFFER (%s): only burnin: %s; only report: %s" % (what,
        ", ".join(sorted(burnin - report)) or "none",
        ", ".join(sorted(report - burnin)) or "none"))
    return False

burnin = set()
burnin_cables = set()
for path in sys.argv[2:]:
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            if rec.get("kind") != "finding":
                continue
            if rec.get("severity") == "fail" and rec.get("category") in PAIR_KINDS:
                burnin.add(key(rec["subject"]))
            elif cable_finding(rec):
                burnin_cables.add(cable_key(rec))
with open(sys.argv[1]) as f:
    doc = json.load(f)
report = {key(p) for p in doc["ports"] if p.get("blamed")}
report_cables = {cable_key(f) for f in doc.get("findings", []) if cable_finding(f)}
same = compare("blamed", burnin, report)
same = compare("cables", burnin_cables, report_cables) and same
sys.exit(0 if same else 1)
PY

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# blamed-ports.sh IBPROOF RECORDS... [-- REPORT_OPTION...]
# One judge, one verdict: the ports burnin blamed (its `fail` findings
# low-bandwidth, intermittent, completion-errors in RECORDS) must be
# exactly the ports `ibproof report RECORDS` blames (its --json ports[]
# with blamed true). The report gets no judging options (it reads them
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

def key(ref):
    return "%s %s port %s" % (ref.get("host"), ref.get("ca"), ref.get("port"))

burnin = set()
for path in sys.argv[2:]:
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            if (rec.get("kind") == "finding" and rec.get("severity") == "fail"
                    and rec.get("category") in PAIR_KINDS):
                burnin.add(key(rec["subject"]))
with open(sys.argv[1]) as f:
    report = {key(p) for p in json.load(f)["ports"] if p.get("blamed")}
print("burnin blamed: %s" % (", ".join(sorted(burnin)) or "none"))
print("report blamed: %s" % (", ".join(sorted(report)) or "none"))
if burnin != report:
    print("DIFFER: only burnin: %s; only report: %s" % (
        ", ".join(sorted(burnin - report)) or "none",
        ", ".join(sorted(report - burnin)) or "none"))
    sys.exit(1)
PY

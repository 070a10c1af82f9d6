#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pkg_demo: the whole `ibproof demo` of the Debian package that pkg_deb
# built (the newest ibproof_*.deb in DEBDIR), extracted with dpkg-deb -x
# into a scratch root and run from there: the ibsim scenario from the
# installed simulator harness (share/ibproof/tests/sim, libexec's
# gen_fattree), then the Soft-RoCE guests, booted from the guest kernel
# cache IBP_VM_CACHE (the vm tier's). It must exit 0 with its last line
# saying that the report found exactly its injected faults, and its report
# must say FAIL (the faults are faults to it). e2e_demo runs the same demo
# from the tree, with the per-fault checks.
# Usage: installed-demo.sh DEBDIR
set -uo pipefail
debdir=${1:?usage: installed-demo.sh DEBDIR}
scratch=$(mktemp -d) && trap 'rm -rf "$scratch"' EXIT
fail() { echo "installed-demo: $*" >&2; exit 1; }
command -v jq >/dev/null || { echo "installed-demo: jq missing" >&2; exit 77; }
deb=$(ls -t "$debdir"/ibproof_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || fail "no ibproof_*.deb in $debdir (pkg_deb builds it)"
root=$scratch/root
dpkg-deb -x "$deb" "$root" || fail "dpkg-deb -x $deb"
start=$(date +%s)
cd / || exit 1
"$root/usr/bin/ibproof" demo --out "$scratch/demo" >"$scratch/demo.log" 2>&1
rc=$?
last=$(tail -n 1 "$scratch/demo.log")
[ "$rc" = 0 ] || { tail -n 20 "$scratch/demo.log" >&2; fail "the installed ibproof demo: exit $rc"; }
n=$(cat "$scratch/demo/fabric/faults.txt" "$scratch/demo/fabric/xcvr-faults.txt" \
	"$scratch/demo/vm-faults.txt" 2>/dev/null | wc -l)
want="demo: the report found all $n injected faults and nothing else"
[ "$n" -gt 0 ] && [ "$last" = "$want" ] ||
	fail "the installed demo's last line '$last', expected '$want'"
jq -e '.verdict == "fail"' "$scratch/demo/report.json" >/dev/null ||
	fail "the installed demo's report does not say FAIL"
echo "installed-demo: $deb: the installed ibproof demo, exit 0 in $(($(date +%s) - start)) s: $last"

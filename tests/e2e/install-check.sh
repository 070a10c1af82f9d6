#!/usr/bin/env bash
# e2e_install: `cmake --install` into a scratch DESTDIR gives an ibproof
# whose `demo` runs from any folder: --help works from /, the installed
# scripts/demo is the one run (it answers for a bad --out; without it the
# binary names the installed path it looked for), and what the demo calls
# is installed. The full demo run is e2e_demo. Usage: install-check.sh BUILD
set -uo pipefail
build=${1:?usage: install-check.sh BUILD}
dest=$(mktemp -d) && trap 'rm -rf "$dest"' EXIT
fail() { echo "install-check: $*" >&2; exit 1; }

DESTDIR=$dest cmake --install "$build" --prefix /usr/local >"$dest.log" 2>&1 ||
	{ cat "$dest.log" >&2; rm -f "$dest.log"; fail "cmake --install failed"; }
rm -f "$dest.log"
pre=$dest/usr/local
bin=$pre/bin/ibproof
[ -x "$bin" ] || fail "no $bin"
for f in libexec/ibproof/gen_fattree share/ibproof/scripts/demo \
	share/ibproof/scripts/demo-cluster share/ibproof/scripts/demo-verify \
	share/ibproof/tests/sim/scenario-faulty.sh share/ibproof/tests/sim/make-db-csv \
	share/ibproof/tests/sim/lib.sh share/ibproof/tests/vm/vmcluster \
	share/ibproof/tests/vm/vm-prepare share/ibproof/tests/vm/guest-init \
	share/ibproof/tests/vm/guest-stage2 share/ibproof/tests/vm/guest-node1 \
	share/ibproof/tests/vm/ibp-vm-ssh; do
	[ -e "$pre/$f" ] || fail "not installed: $f"
done

cd / || exit 1
"$bin" demo --help >"$dest/help" 2>&1 || fail "ibproof demo --help from /: exit $?"
grep -q '^Usage: ibproof demo' "$dest/help" || fail "no usage: $(cat "$dest/help")"

# The installed script runs: it refuses an output folder it cannot make.
"$bin" demo --out /dev/null/demo >"$dest/out" 2>&1
rc=$?
[ "$rc" = 3 ] && grep -q '^demo: cannot make /dev/null/demo' "$dest/out" ||
	fail "installed demo with a bad --out: exit $rc: $(cat "$dest/out")"

# Without the installed script, the binary names where it looked.
rm "$pre/share/ibproof/scripts/demo"
"$bin" demo --out "$dest/o" >"$dest/out" 2>&1
rc=$?
[ "$rc" = 3 ] && grep -qF "cannot run $pre/bin/../share/ibproof/scripts/demo" "$dest/out" ||
	fail "no installed script: exit $rc: $(cat "$dest/out")"
echo "install-check: the installed ibproof finds its demo under $pre/share/ibproof"

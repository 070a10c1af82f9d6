# SPDX-License-Identifier: MIT
# Sourced by the tests' shell scripts: check DESCRIPTION COMMAND... runs the
# command, prints "ok: ..." or "FAIL: ..." and counts the failures in $fails.
fails=0
check() {
	local what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}

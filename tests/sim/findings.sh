# SPDX-License-Identifier: MIT
# findings.sh: helpers for sim tests that compare finding records.

# canon_findings FILE: one line per finding, "category|end|end[|end|end]",
# ends "node:port" sorted, lines sorted. Swapped findings list both cables.
canon_findings() {
	jq -r 'select(.kind == "finding")
		| [.category] + ([.subject.a, .subject.b,
			.evidence.swapped_with.a?, .evidence.swapped_with.b?,
			(if .subject.node then .subject else empty end)]
			| map(select(. != null) | "\(.node):\(.port)") | sort)
		| join("|")' "$1" | sort
}

# expect_same WHAT EXPECTED_FILE ACTUAL_FILE
expect_same() {
	if ! diff -u "$2" "$3" >&2; then
		sim_fail "$1: findings differ (- expected, + actual)"
	fi
	sim_log "ok: $1 ($(wc -l <"$3") findings)"
}

# expect_exit NAME RC: from OUTDIR/exit-codes
expect_exit() {
	local got
	got=$(awk -v n="$1" '$1 == n { print $2 }' "$out/exit-codes")
	[ "$got" = "$2" ] || sim_fail "$1 exited $got, want $2 (see $1.err)"
}

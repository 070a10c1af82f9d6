#!/usr/bin/env bash
# The dispatcher's documented behaviour: --help, version, help CMD, unknown
# commands and not-built stubs, with their exit codes.
set -u
bin=${1:?usage: cli-smoke.sh IBPROOF}
fails=0
passes=0
expect() { # expect RC PATTERN -- ARGS...
	local want=$1 pattern=$2 out rc
	shift 3
	out=$("$bin" "$@" 2>&1); rc=$?
	if [ "$rc" != "$want" ] || ! grep -qE -- "$pattern" <<<"$out"; then
		echo "FAIL: ibproof $*: exit $rc (want $want), output:"; echo "$out"
		fails=$((fails + 1))
	else
		echo "ok: ibproof $* -> $rc"
		passes=$((passes + 1))
	fi
}
expect 0 'Usage: ibproof COMMAND' -- --help
expect 0 'Exit status:' -- help
expect 0 '^ibproof [0-9]+\.[0-9]+\.[0-9]+' -- version
expect 2 "unknown command 'nosuch'" -- nosuch
expect 2 'Usage: ibproof COMMAND' -- nosuch
expect 2 'Usage: ibproof COMMAND' --
for cmd in burnin fabric pcie report node demo; do
	expect 0 "Usage: ibproof $cmd" -- help "$cmd"
	a=$("$bin" help "$cmd" 2>&1); b=$("$bin" "$cmd" --help 2>&1)
	[ "$a" = "$b" ] || { echo "FAIL: help $cmd differs from $cmd --help"; fails=$((fails + 1)); }
	expect 2 "unknown option" -- "$cmd" --no-such-option
done
# An option's range is checked before anything runs.
expect 2 "--qp-timeout: .*1.*31" -- burnin --qp-timeout 32 --dry-run
expect 2 "--qp-timeout: .*1.*31" -- burnin --qp-timeout 0 --dry-run
# The transport is found by name among the data path's backends.
expect 2 "--transport: 'nosuch' is not verbs or fake" -- burnin --transport nosuch --dry-run
expect 0 "burnin plan: " -- burnin --transport fake --fake ports=4 --dry-run
# Man pages come from the same option tables as --help.
for cmd in burnin "fabric discover" "fabric check" "fabric counters" pcie report node demo; do
	# shellcheck disable=SC2086 # "fabric check" is two words
	expect 0 '^\.TH "IBPROOF' -- $cmd --man
	# shellcheck disable=SC2086
	"$bin" $cmd --man | grep -q -- '^\.B \\-h, \\-\\-help$' ||
		{ echo "FAIL: ibproof $cmd --man lacks --help"; fails=$((fails + 1)); }
done
# D9: what a command line or an input file holds reaches the terminal
# escaped: no ESC or BEL from them in any message.
fx=$(cd "$(dirname "$0")/../fixtures/inputs" && pwd)
expect 2 "unknown command 'no.x1B.2J'" -- $'no\x1b[2J'
expect 2 "unknown option.*'--x.x1B.2J'" -- report $'--x\x1b[2J'
expect 2 "kind '.x1B.0;pwned.x07" -- report "$fx/d9-errmsg-kind.jsonl"
expect 2 'counter "Symbol.x1B.2JErrorCounter"' -- fabric counters \
	--thresholds "$fx/d9-errmsg.thr"
for args in "no"$'\x1b[2J' "report $fx/d9-errmsg-kind.jsonl"; do
	# shellcheck disable=SC2086 # args are words
	if "$bin" $args 2>&1 | grep -q $'[\x1b\x07]'; then
		echo "FAIL: ibproof $args: a raw control reached the terminal"
		fails=$((fails + 1))
	fi
done
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]

#!/usr/bin/env bash
# ibproof report's outputs, end to end, on fixtures whose leaf switch
# describes itself as '"><script>alert(1)</script>;rm -rf /':
# - exit codes: 0 clean, 1 faults, 2 malformed input with FILE:LINE;
# - the HTML opens in headless Chromium with no console errors, its
#   script runs, the heatmap is drawn, and the description stays text;
# - the disable script passes `bash -n` and, run with stubs for
#   ibportstate and rm on PATH, passes exactly the expected arguments
#   and never runs anything from the description.
set -uo pipefail
ibproof=${1:?usage: report-outputs.sh IBPROOF FIXTURES}
fixtures=${2:?usage: report-outputs.sh IBPROOF FIXTURES}
evil='"><script>alert(1)</script>;rm -rf /'
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
	echo "report-outputs: chromium not installed (scripts/install-deps)" >&2
	exit 77
fi
work=$(mktemp -d /tmp/ibproof-e2e-report.XXXXXX)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# Exit codes.
"$ibproof" report "$fixtures/clean-fabric.jsonl" >"$work/clean.txt"
rc=$?; [ $rc -eq 0 ] || fail "clean fixture: exit $rc, expected 0"
head -1 "$work/clean.txt" | grep -qx PASS || fail "clean fixture: verdict not PASS"
"$ibproof" report "$fixtures/malformed.jsonl" >/dev/null 2>"$work/bad.err"
rc=$?; [ $rc -eq 2 ] || fail "malformed fixture: exit $rc, expected 2"
grep -q "malformed.jsonl:2: pair record: missing required field" "$work/bad.err" ||
	fail "malformed fixture: no FILE:LINE message: $(cat "$work/bad.err")"

"$ibproof" report "$fixtures/evil-fabric.jsonl" --html "$work/r.html" \
	--disable-script "$work/disable.sh" --json "$work/r.json" \
	--csv "$work/r.csv" --junit "$work/r.xml" \
	--prometheus "$work/r.prom" >"$work/evil.txt"
rc=$?; [ $rc -eq 1 ] || fail "evil fixture: exit $rc, expected 1"
head -1 "$work/evil.txt" | grep -qx "FAIL: 1 port to disable" ||
	fail "evil fixture: verdict line: $(head -1 "$work/evil.txt")"

# The HTML: escaped as written, no network, scripts only our own two.
grep -qF '<script>alert(1)' "$work/r.html" && fail "HTML holds the raw <script>"
grep -qF '&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;;rm -rf /' "$work/r.html" ||
	fail "HTML lacks the escaped description"
grep -qE '(src|href)="?(https?:)?//' "$work/r.html" && fail "HTML refers to the network"
[ "$(grep -o '<script' "$work/r.html" | wc -l)" -eq 2 ] || fail "HTML: not exactly 2 scripts"

# Headless Chromium: console errors, the DOM after scripts.
timeout 90 "$chrome" --headless --no-sandbox --disable-gpu \
	--disable-background-networking --disable-component-update --disable-sync \
	--no-first-run --user-data-dir="$work/profile" --enable-logging=stderr --v=0 \
	--dump-dom "file://$work/r.html" >"$work/dom.html" 2>"$work/chrome.log"
rc=$?; [ $rc -eq 0 ] || fail "chromium exit $rc: $(tail -5 "$work/chrome.log")"
if grep -E 'CONSOLE|Uncaught|SyntaxError|ReferenceError|TypeError' "$work/chrome.log"; then
	fail "console messages in chromium's log"
fi
cells=$(grep -o 'data-heatmap-cells="[0-9]*"' "$work/dom.html" | grep -o '[0-9]\+')
[ "${cells:-0}" -gt 0 ] || fail "the script did not run or found no heatmap cells"
[ "$(grep -o 'class="hm-cell"' "$work/dom.html" | wc -l)" -eq "${cells:-x}" ] ||
	fail "heatmap cells in the DOM differ from the script's count"
grep -qF 'heatmap cells, 1 in the disable list.' "$work/dom.html" ||
	fail "the script's status line is missing"
[ "$(grep -o '<script' "$work/dom.html" | wc -l)" -eq 2 ] ||
	fail "the DOM after scripts holds more than our 2 scripts"
grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$work/dom.html" ||
	fail "the DOM does not show the description as text"

# The disable script: syntax, then a run with stubs and nothing else on PATH.
bash -n "$work/disable.sh" || fail "bash -n disable.sh"
sh -n "$work/disable.sh" || fail "sh -n disable.sh"
mkdir -p "$work/bin" "$work/run"
for tool in ibportstate rm sh bash alert; do
	printf '#!/bin/sh\nfor a in "$@"; do printf "%%s|" "$a" >>"%s/%s.log"; done\necho >>"%s/%s.log"\n' \
		"$work" "$tool" "$work" "$tool" >"$work/bin/$tool"
	chmod +x "$work/bin/$tool"
done
shell=$(command -v sh)
(cd "$work/run" && env -i PATH="$work/bin" "$shell" "$work/disable.sh") >"$work/script.out" 2>&1 ||
	fail "disable.sh failed: $(cat "$work/script.out")"
[ "$(cat "$work/ibportstate.log" 2>/dev/null)" = "-G|0x0002c90310000001|6|disable|" ] ||
	fail "ibportstate got: $(cat "$work/ibportstate.log" 2>/dev/null)"
for tool in rm sh bash alert; do
	[ -e "$work/$tool.log" ] && fail "disable.sh ran $tool: $(cat "$work/$tool.log")"
done
# On a secured subnet the M_Key comes from the operator's environment
# (issue 32); the script never holds one.
rm -f "$work/ibportstate.log"
(cd "$work/run" && env -i PATH="$work/bin" IBPROOF_M_KEY=0x5eed "$shell" "$work/disable.sh") \
	>"$work/script.out" 2>&1 || fail "disable.sh with IBPROOF_M_KEY failed"
[ "$(cat "$work/ibportstate.log" 2>/dev/null)" = "-G|-y|0x5eed|0x0002c90310000001|6|disable|" ] ||
	fail "ibportstate with IBPROOF_M_KEY got: $(cat "$work/ibportstate.log" 2>/dev/null)"
grep -qF "$evil port 6 (cage 3/2)" "$work/script.out" ||
	fail "the description was not printed verbatim: $(cat "$work/script.out")"
[ -z "$(ls -A "$work/run")" ] || fail "disable.sh wrote files: $(ls -A "$work/run")"
# a newline in a description never ends a comment
grep -n '^rm -rf' "$work/disable.sh" && fail "a description line escaped its comment"

# The other formats keep the description inside their quoting.
grep -qF '"""><script>alert(1)</script>;rm -rf / port 6 (cage 3/2)"' "$work/r.csv" ||
	fail "CSV quoting of the description"
grep -qF '<script>' "$work/r.xml" && fail "JUnit holds a raw <script>"
grep -qF 'node03 mlx5_1 port 1' "$work/r.json" || fail "JSON lacks the blamed port"

if [ $failures -gt 0 ]; then
	echo "report-outputs: $failures check(s) failed; files in $work kept" >&2
	trap - EXIT
	exit 1
fi
echo "report-outputs: all checks passed ($cells heatmap cells)"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# unit_call_cycles: scripts/call-cycles --headers sees a circle that only a
# shared header closes, names the header and its symbols, and leaves it out
# without the option. A copy of the script runs in a scratch tree (it reads
# sources from its own repository): a.c calls b.c; ab.h declares both and
# both include it; c.c includes nothing and calls a.c.
set -u
script=${1:?usage: call-cycles.sh SCRIPTS/call-cycles}
cc=${CC:-cc}
command -v "$cc" >/dev/null || { echo "call-cycles.sh: no C compiler" >&2; exit 77; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail() { echo "call-cycles.sh: $*" >&2; exit 1; }
mkdir -p "$tmp/scripts" "$tmp/lib" "$tmp/build/lib.dir/lib"
cp "$script" "$tmp/scripts/call-cycles"
cat >"$tmp/lib/ab.h" <<'C'
/* a_run() and b_run(): one header for both */
int a_run(int x);
int b_run(int x);
extern int b_count;
C
printf '#include "lib/ab.h"\nint a_run(int x)\n{\n\treturn b_run(x) + 1;\n}\n' >"$tmp/lib/a.c"
printf '#include "lib/ab.h"\nint b_count;\nint b_run(int x)\n{\n\treturn x + b_count;\n}\n' >"$tmp/lib/b.c"
printf 'int a_run(int x);\nint c_run(void)\n{\n\treturn a_run(0);\n}\n' >"$tmp/lib/c.c"
for f in a b c; do
	"$cc" -c -I"$tmp" -o "$tmp/build/lib.dir/lib/$f.c.o" "$tmp/lib/$f.c" || fail "cc $f.c"
done
cd "$tmp" || exit 1

scripts/call-cycles build >out 2>&1 || fail "calls alone make a circle: $(cat out)"
grep -qx '3 files, 2 file edges, 0 circle(s)' out || fail "without --headers: $(cat out)"

scripts/call-cycles --headers lib/a.c,lib/b.c,lib/c.c build >out 2>&1
[ $? -eq 1 ] || fail "the header's circle was not seen: $(cat out)"
grep -qx 'circle: lib/a.c lib/b.c' out || fail "no circle of a.c and b.c: $(cat out)"
grep -qx '  lib/a.c -> lib/b.c: b_run' out || fail "the call edge: $(cat out)"
grep -qx '  lib/b.c -> lib/a.c: (headers only)' out || fail "the header edge: $(cat out)"
grep -qx '    includes lib/ab.h, which declares a_run' out || fail "the header is not named: $(cat out)"
grep -qx '    includes lib/ab.h, which declares b_count b_run' out || fail "extern not read: $(cat out)"
grep -q 'lib/c.c ->' out && fail "c.c includes nothing, yet has a header edge: $(cat out)"
grep -qx '3 files, 2 file edges, 2 header edges among 3 files, 1 circle(s)' out || fail "summary: $(cat out)"

scripts/call-cycles --headers lib/a.c,lib/nope.c build 2>/dev/null
[ $? -eq 2 ] || fail "a file that is no source of the build did not exit 2"
echo "call-cycles.sh: ok"

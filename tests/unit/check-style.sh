#!/usr/bin/env bash
# unit_check_style: scripts/check-style fails on a misformatted file and on
# each banned call (naming FILE:LINE), and passes the same code once fixed.
# The files live in a scratch copy so the tree's own state does not matter.
set -u
check=${1:?usage: check-style.sh SCRIPTS/check-style}
root=$(cd "$(dirname "$check")/.." && pwd)
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-style.sh: $*" >&2; exit 1; }
cd "$tmp" || exit 1 # no .clang-format here: check-style brings the repo's

cat >good.c <<'C'
#include <stdio.h>
#include <stdlib.h>

/* atoi( in a comment is no call */
int parse(const char *s, char *buf, size_t len)
{
	char *end;
	long v = strtol(s, &end, 10);

	snprintf(buf, len, "%ld", v);
	return *end ? -1 : 0;
}
C
sed 's/^\t//; s/{$/{ /' good.c >ugly.c
printf 'int f(const char *s)\n{\n\treturn atoi(s);\n}\n' >atoi.c
printf 'void f(char *d)\n{\n\tstrcpy(d, "x");\n}\n' >strcpy.c
printf 'void f(char *d)\n{\n\tsprintf(d, "%%d", 1);\n}\n' >sprintf.c

if command -v clang-format >/dev/null; then
	"$check" good.c || fail "a formatted, clean file was refused"
	"$check" ugly.c 2>err && fail "a misformatted file passed"
	grep -q 'ugly.c' err || fail "the misformatted file is not named: $(cat err)"
	clang-format -i --style="file:$root/.clang-format" ugly.c && "$check" ugly.c || fail "ugly.c once formatted was refused"
else
	echo "check-style.sh: no clang-format (scripts/install-deps installs it)" >&2
	exit 77
fi
"$check" --bans-only good.c ugly.c || fail "--bans-only refused clean files"
for f in atoi strcpy sprintf; do
	"$check" --bans-only good.c $f.c 2>err && fail "$f passed"
	grep -q "^$f.c:3: banned call" err || fail "$f not reported as $f.c:3: $(cat err)"
done
# uses a line-based grep missed: after '*', after a comment, a pointer to it,
# the name in parentheses, the '(' on the next line; and a missing file
cat >hidden.c <<'C'
int f(int *p, const char *s)
{
	*p = atoi(s);
	/* x */ strcpy((char *)s, "");
	int (*fp)(const char *) = atoi;
	return (sprintf)((char *)s, "") + atoi
		(s);
}
C
"$check" --bans-only hidden.c 2>err && fail "hidden uses passed"
for line in 3 4 5 6; do
	grep -q "^hidden.c:$line: banned call" err || fail "hidden.c:$line not reported: $(cat err)"
done
"$check" --bans-only missing.c 2>/dev/null
[ $? -eq 2 ] || fail "a missing file did not exit 2"
echo "check-style.sh: ok"

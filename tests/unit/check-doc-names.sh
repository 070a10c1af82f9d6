#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# unit_check_doc_names: scripts/check-doc-names fails on a markdown file that
# names a missing file, a missing function, a path outside the repository,
# a missing file in a fenced diagram and a name only this test holds, each printed as FILE:LINE, and
# passes a file whose names all exist. The markdown lives in a scratch
# folder; the names are checked against the repository of the script.
set -u
check=${1:?usage: check-doc-names.sh SCRIPTS/check-doc-names}
root=$(cd "$(dirname "$check")/.." && pwd)
git -C "$root" rev-parse --git-dir >/dev/null 2>&1 ||
	{ echo "check-doc-names.sh: $root is not a git checkout" >&2; exit 77; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-doc-names.sh: $*" >&2; exit 1; }

cat >"$tmp/good.md" <<'MD'
# Names that exist

```
   burnin        burnin/coord.c: rank 0
```

`burnin/coord.c` keeps `struct burnin_coord`; the judge is `judge_pairs()`
in `judge/`, the layers are `scripts/check-layers`, the layout is
docs/design.md and the parsers are `*_cli.c` (`scripts/call-cycles build`,
`--records FILE`, `IBPROOF_HOST`, `"transport": "fake"`, `rdma_cma.h`).
MD
"$check" "$tmp/good.md" >"$tmp/out" 2>&1 || fail "names that exist refused: $(cat "$tmp/out")"
grep -q '^check-doc-names: ' "$tmp/out" || fail "no success line: $(cat "$tmp/out")"

cat >"$tmp/bad.md" <<'MD'
# Stale names

```
   cli          cli/no_such_dispatcher.c: the dispatcher
```

The round loop is `burnin/no_such_file.c`, it calls `no_such_function()`;
see `../shared/notes.md` and the rules (no_such_style.md).
Its state is `no_such_plain_name`, a word of this test alone.
MD
"$check" "$tmp/bad.md" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "stale names: exit $rc, not 1: $(cat "$tmp/out")"
for want in "bad.md:4: 'cli/no_such_dispatcher.c'" "bad.md:7: 'burnin/no_such_file.c'" \
	"bad.md:7: 'no_such_function'" "bad.md:8: '../shared/notes.md' is outside" \
	"bad.md:8: 'no_such_style.md'" "bad.md:9: 'no_such_plain_name'"; do
	grep -qF "$want" "$tmp/out" || fail "not reported: $want; got: $(cat "$tmp/out")"
done
[ "$(wc -l <"$tmp/out")" -eq 6 ] || fail "more than the six offences: $(cat "$tmp/out")"

"$check" "$tmp/missing.md" 2>/dev/null
[ $? -eq 2 ] || fail "a missing markdown file did not exit 2"
echo "check-doc-names.sh: ok"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pkg_deb: the Debian package of this tree. Builds it with scripts/build-deb
# into DEBDIR unless a package there is newer than every file of the tree
# (so a second run takes it), with lintian reporting no error; then extracts
# it with dpkg-deb -x into a scratch root and runs what it installed:
#   ibproof --help and version; every man page through lexgrog (whatis) and
#   ibproof-node(1) through man -l; the bash completion; the systemd units
#   through systemd-analyze verify --root (installed, not enabled: no
#   symlink in the package); the alert rules through promtool check rules;
#   the installed `ibproof demo`: its help, its script (a bad --out), and
#   its first stage, the ibsim scenario, run from the installed simulator
#   harness (tests/sim under share/ibproof, gen_fattree under libexec).
#   pkg_demo (tests/pkg/installed-demo.sh) then runs the whole installed
#   demo, guests included, in the vm tier; IBP_PKG_DEMO=full runs it here
#   instead of the ibsim stage.
# Usage: package-check.sh DEBDIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
debdir=${1:?usage: package-check.sh DEBDIR}
scratch=$(mktemp -d) && trap 'rm -rf "$scratch"' EXIT
fail() { echo "package-check: $*" >&2; exit 1; }
start=$(date +%s)

# ---- the package: built once per change of the tree ----
deb=$(ls -t "$debdir"/ibproof_*.deb 2>/dev/null | head -n 1)
if [ -n "$deb" ]; then
	newer=$(cd "$repo" && git ls-files -co --exclude-standard -z |
		xargs -0 -I{} find {} -maxdepth 0 -type f -newer "$deb" 2>/dev/null | head -n 1)
	[ -z "$newer" ] || { echo "package-check: $newer is newer than $deb: building again"; deb=; }
fi
if [ -z "$deb" ]; then
	"$repo/scripts/build-deb" "$debdir" || fail "scripts/build-deb failed"
	deb=$(ls "$debdir"/ibproof_*.deb) || fail "no package in $debdir"
fi
grep -q '^E: ' "$debdir/lintian.txt" && fail "lintian errors: $(grep '^E: ' "$debdir/lintian.txt")"
built=$(($(date +%s) - start))

root=$scratch/root
dpkg-deb -x "$deb" "$root" || fail "dpkg-deb -x $deb"
bin=$root/usr/bin/ibproof
[ -x "$bin" ] || fail "no usr/bin/ibproof in $deb"
version=$(dpkg-deb -f "$deb" Version)

# ---- the binary ----
"$bin" --help >"$scratch/help" 2>&1 || fail "ibproof --help: exit $?"
grep -q '^Usage: ibproof COMMAND' "$scratch/help" || fail "ibproof --help: $(head -3 "$scratch/help")"
"$bin" version | grep -qx "ibproof ${version%%-*}" ||
	fail "ibproof version is not the package's $version: $("$bin" version | head -1)"

# ---- man pages: one per command, whatis entries, readable ----
n=0
for page in "$root"/usr/share/man/man1/*.1.gz; do
	lexgrog "$page" >/dev/null || fail "lexgrog: no whatis entry in $page"
	n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n man pages"
MANWIDTH=200 man -l "$root/usr/share/man/man1/ibproof-node.1.gz" >"$scratch/man" 2>&1 ||
	fail "man -l ibproof-node.1.gz"
grep -q -- '--light' "$scratch/man" || fail "ibproof-node(1) does not document --light"

# ---- bash completion, generated from the option tables ----
comp=$root/usr/share/bash-completion/completions/ibproof
got=$(bash -c 'source "$1"; COMP_WORDS=(ibproof node --li); COMP_CWORD=2; _ibproof
	echo "${COMPREPLY[*]}"' _ "$comp") || fail "the bash completion does not load"
[ "$got" = --light ] || fail "completion of 'ibproof node --li': '$got'"
# an option whose name and ARG fill the help's column (--from-mlxlink
# [PORT=]FILE) and one whose ARG is quoted words (--launcher "CMD ...")
got=$(bash -c 'source "$1"; COMP_WORDS=(ibproof fabric cables --from-m)
	COMP_CWORD=3; _ibproof; echo "${COMPREPLY[*]}"' _ "$comp") ||
	fail "the bash completion does not load"
[ "$got" = --from-mlxlink ] ||
	fail "completion of 'ibproof fabric cables --from-m': '$got'"
got=$(bash -c 'source "$1"; COMP_WORDS=(ibproof node --laun); COMP_CWORD=2
	_ibproof; echo "${COMPREPLY[*]}"' _ "$comp") ||
	fail "the bash completion does not load"
[ "$got" = --launcher ] || fail "completion of 'ibproof node --laun': '$got'"

# ---- systemd units: verified in the installed tree, not enabled ----
for u in ibproof-light.service ibproof-light.timer; do
	[ -f "$root/lib/systemd/system/$u" ] || fail "no lib/systemd/system/$u"
done
[ -z "$(find "$root" -path '*/wants/*' -o -path '*.wants*' | head -1)" ] ||
	fail "the package enables a unit"
# the targets the units name (sysinit, timers, network) are the system's:
# copied beside the package's units, never over them
cp -rn /lib/systemd/system/. "$root/lib/systemd/system/"
SYSTEMD_LOG_LEVEL=notice systemd-analyze verify --root="$root" --man=no \
	"$root/lib/systemd/system/ibproof-light.service" \
	"$root/lib/systemd/system/ibproof-light.timer" >"$scratch/verify" 2>&1 ||
	{ cat "$scratch/verify" >&2; fail "systemd-analyze verify"; }
[ -s "$scratch/verify" ] && { cat "$scratch/verify" >&2; fail "systemd-analyze verify warned"; }
[ -f "$root/etc/default/ibproof-light" ] || fail "no etc/default/ibproof-light"
dpkg-deb -e "$deb" "$scratch/control"
grep -qx /etc/default/ibproof-light "$scratch/control/conffiles" ||
	fail "etc/default/ibproof-light is not a conffile"

# ---- alert rules and Slurm scripts ----
promtool=$("$repo/scripts/promtool-path") || fail "no promtool"
"$promtool" check rules "$root/usr/share/ibproof/prometheus/ibproof-rules.yml" \
	>/dev/null || fail "promtool check rules on the installed rules"
[ -x "$root/usr/libexec/ibproof/slurm/ibproof-healthcheck" ] ||
	fail "no usr/libexec/ibproof/slurm/ibproof-healthcheck"
for f in ibproof-validate.sbatch ibproof-acceptance.sbatch; do
	[ -f "$root/usr/share/ibproof/slurm/$f" ] || fail "no usr/share/ibproof/slurm/$f"
done

# ---- the installed demo ----
cd / || exit 1
"$bin" demo --help 2>&1 | grep -q '^Usage: ibproof demo' || fail "ibproof demo --help"
"$bin" demo --out /dev/null/demo >"$scratch/out" 2>&1
rc=$?
[ "$rc" = 3 ] && grep -q '^demo: cannot make /dev/null/demo' "$scratch/out" ||
	fail "installed demo with a bad --out: exit $rc: $(cat "$scratch/out")"
share=$root/usr/share/ibproof
if [ "${IBP_PKG_DEMO:-}" = full ]; then
	"$bin" demo --out "$scratch/demo" || fail "the installed ibproof demo: exit $?"
else
	IBPROOF=$bin GEN_FATTREE=$root/usr/libexec/ibproof/gen_fattree \
		"$share/tests/sim/scenario-faulty.sh" "$scratch/fabric" >"$scratch/fabric.log" 2>&1 ||
		{ tail -20 "$scratch/fabric.log" >&2; fail "the installed demo's ibsim stage failed"; }
	[ -s "$scratch/fabric/faults.txt" ] && [ -s "$scratch/fabric/check.jsonl" ] ||
		fail "the installed demo's ibsim stage wrote no faults or records"
fi
took=$(($(date +%s) - start))
echo "package-check: $deb ($version): lintian no error, $n man pages," \
	"completion, units, rules, the installed demo's ibsim stage: ${took} s" \
	"(${built} s to build or take the package)"
[ -z "${IBP_FIGURES:-}" ] ||
	echo "pkg_deb: ${took} s (${built} s building or taking the package)" >>"$IBP_FIGURES"

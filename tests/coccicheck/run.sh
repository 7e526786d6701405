#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every lsmconv rule (cocci/[0-9]*.cocci), in every mode its `virtual`
# lines declare, run standalone through the kernel tree's own
# scripts/coccicheck, the way a maintainer would:
#   make -C TREE coccicheck MODE=M COCCI=RULE M=FIXTURE/security/demo \
#        SPFLAGS="-D lsmconv=cocci"
# on a scratch copy of tests/coccicheck/fixture (small legacy code written
# for lsmconv: a module, a half-converted module, a 4.0-style framework
# file); the target is the tree itself (coccicheck runs spatch there, the
# rules default -D target to the current directory).  One case per rule
# and mode:
#   report   findings as FILE:LINE: lines
#   org      `* TODO` lines
#   context  `*`, `-` or `+` lines
#   patch    a unified diff that applies (git apply) and changes the copy;
#            a rule that declares no transformation (no `depends on patch`
#            rule) prints its LSMCONV findings instead
# Mutation: with lsmconv.emit's report branch replaced by `pass`, every
# rule's report case is not ok (the findings are gone).
# TREE=DIR picks the kernel tree (default: the distro tree); MODES="m
# ..." only those modes (default every declared one).
#
# Prints TAP 13.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh
tree=$(realpath -m "${TREE:-$LSMCONV_DISTRO_TREE}")
echo "TAP version 13"
if ! command -v spatch >/dev/null; then
	tap_skip "coccicheck" "spatch not installed (make deps)"
	tap_done
	exit
fi
if [ ! -x "$tree/scripts/coccicheck" ] || [ ! -f "$tree/include/linux/lsm_hook_defs.h" ]; then
	tap_skip "coccicheck" "$tree: no kernel tree with scripts/coccicheck (make tree)"
	tap_done
	exit
fi
# Outside any git work tree: spatch picks the files to visit with git grep
# when the directory is in one, and finds none in a git-ignored build/.
work=$(mktemp -d "${TMPDIR:-/tmp}/lsmconv-coccicheck.XXXXXX")
trap 'rm -rf -- "$work"' EXIT

# run RULE MODE: a fresh copy of the fixture, coccicheck's output in $out.
run() {
	local rule=$1 mode=$2
	rm -rf -- "$work/fx"
	cp -a tests/coccicheck/fixture "$work/fx"
	out=$work/$(basename "$rule" .cocci).$mode.out
	make -s -C "$tree" coccicheck MODE="$mode" COCCI="$rule" M="$work/fx/security/demo" J=1 \
		SPFLAGS="-D lsmconv=$root/cocci" >"$out" 2>&1
}

for rule in "$root"/cocci/[0-9]*.cocci; do
	name=$(basename "$rule")
	mapfile -t modes < <(sed -n 's/^virtual[[:space:]]\+\(patch\|report\|context\|org\)[[:space:]]*$/\1/p' "$rule")
	for mode in "${modes[@]}"; do
		[[ " ${MODES:-$mode} " == *" $mode "* ]] || continue
		echo "# $name $mode" >&2
		if ! run "$rule" "$mode"; then
			tap_not_ok "$name MODE=$mode: coccicheck failed"
			tap_diag "$(tail -n 5 "$out")"
			continue
		fi
		case $mode in
		report)
			tap_check "$name MODE=report: findings with file:line" \
				grep -qE "^$work/fx/security/demo/[A-Za-z0-9_]+\.c:[0-9]+:" "$out" ;;
		org)
			tap_check "$name MODE=org: org TODO lines" grep -q '^\* TODO ' "$out" ;;
		context)
			tap_check "$name MODE=context: -/+/* lines" grep -qE '^(\*|-[^-]|\+[^+])' "$out" ;;
		patch)
			if grep -q '^+++ ' "$out"; then
				grep -v '^LSMCONV	' "$out" >"$out.diff"
				cp -a "$work/fx" "$work/fx.orig"
				if (cd / && git apply -p1 --unsafe-paths "$out.diff") 2>"$out.apply" &&
					! diff -rq "$work/fx.orig" "$work/fx" >/dev/null; then
					tap_ok "$name MODE=patch: a diff that applies and converts"
				else
					tap_not_ok "$name MODE=patch: a diff that applies and converts"
					tap_diag "$(tail -n 5 "$out.apply")"
				fi
				rm -rf -- "$work/fx.orig"
			elif ! grep -q 'depends on patch' "$rule"; then
				tap_check "$name MODE=patch: findings (the rule changes nothing)" \
					grep -q '^LSMCONV	' "$out"
			else
				tap_not_ok "$name MODE=patch: no diff"
				tap_diag "$(tail -n 5 "$out")"
			fi ;;
		esac
	done
done
tap_done

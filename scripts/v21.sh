#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make v21: the 2015 series on its own kernel.  Stack a real pre-stacking
# tree in its own version (convert.sh series --own), compare the result with
# Casey Schaufler's own v21 patches (the seeds), build every step and boot
# the baseline and the stacked kernel with the behaviour suite.
#
# usage: scripts/v21.sh [--tree TARBALL|DIR] [--seeds DIR] [--work DIR]
#                       [--steps LIST] [--force]
#
#   --tree   the pre-stacking tree: a tarball (no top-level folder, or one)
#            or a directory (default ../shared/trees/linux-4.0-v21base.tar.xz
#            next to the repository; V21_TREE= in make)
#   --seeds  the v21 patches to compare with (default ../shared/seeds)
#   --work   where everything goes (default build/v21): base/ (the tree as
#            one git commit), series/ (the patches), work/ (the series'
#            scratch tree), compare.md, verify/ (builds, boots, report)
#   --steps  which of the steps below run (default 1,2,3,4)
#   --force  write into a --work lsmconv did not make, beside its files
#   -h, --help  this text
#
#   1 tree     unpack the tree into WORK/base, one commit (once)
#   2 series   convert.sh series --baseline WORK/base --own
#   3 compare  verify/v21cmp.py: the series against the seeds, per seed
#              patch (skipped, with the reason, when there are no seeds or
#              the tree is not the one v21 was written for)
#   4 verify   verify/pipeline.sh --own: build the baseline and every step,
#              boot the baseline and the stacked kernel under each major,
#              compare the decisions, and catch a dropped LSM_HOOK_INIT
#
# Exit 0 when every step that ran passed; 3 when one failed (its line names
# it); 2 for usage or input errors (nothing written).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

R=$LSMCONV_ROOT
SHARED=$(realpath -m "$R/../shared")
src=${V21_TREE:-$SHARED/trees/linux-4.0-v21base.tar.xz}
seeds=$SHARED/seeds work=$R/build/v21 steps=1,2,3,4 force=0

usage() {	# --help: the usage on stdout, exit 0
	sed -n '8,32s/^# \{0,1\}//p' "$0"
	exit 0
}

parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--tree) need_value "$@"; src=$2; shift 2 ;;
		--seeds) need_value "$@"; seeds=$2; shift 2 ;;
		--work) need_value "$@"; work=$2; shift 2 ;;
		--steps) need_value "$@"; steps=$2; shift 2 ;;
		--force) force=1; shift ;;
		-h | --help) usage ;;
		*) die_usage "unknown argument '$1' (see --help)" ;;
		esac
	done
	[ -e "$src" ] || die_usage "$src: no such tree (give --tree, or V21_TREE=, a tarball or directory of a pre-4.2 kernel)"
	work=$(realpath -m "$work")
	# the tree is read, --work written: neither inside the other
	local s
	s=$(realpath -m "$src")
	case $s/ in "$work"/*) die_usage "--tree $src is inside --work $work: give a --work apart from it" ;; esac
	case $work/ in "$s"/*) die_usage "--work $work is inside --tree $src: give a --work apart from it" ;; esac
	guard_out "$work" .lsmconv-out "$force" --work base series work compare.md compare.txt verify logs
	lock_dir "$work"
	mkdir -p "$work/logs"
	[ -e "$work/.lsmconv-out" ] ||
		echo "Work directory of lsmconv (make v21); the next run reuses it." >"$work/.lsmconv-out"
}
selected() { case ",$steps," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

declare -a RESULT DETAIL SECS
T0=0
record() {	# record N pass|fail|skip DETAIL
	RESULT[$1]=$2 DETAIL[$1]=$3 SECS[$1]=$(($(date +%s) - T0))
	printf '[%s/4] %s%s\n' "$1" "$2" "${3:+: $3}" >&2
}

# step 1: WORK/base, the tree as one commit (a key file says from what)
step_tree() {
	local base=$work/base key tmp top
	key=$( { realpath "$src"; [ -d "$src" ] && git -C "$src" rev-parse HEAD 2>/dev/null;
		[ -f "$src" ] && stat -c '%s %Y' "$src"; } | sha256sum | cut -c1-16)
	if [ -d "$base/.git" ] && [ "$(cat "$base/.git/lsmconv-source" 2>/dev/null)" = "$key" ]; then
		record 1 pass "$base ($(kernel_version "$base"), unpacked before)"
		return
	fi
	rm -rf "$base"
	tmp=$(mktemp -d "$work/.base.XXXXXX")
	progress 1 4 "unpacking $src"
	if [ -d "$src" ]; then
		require_kernel_tree "$src"
		tar -C "$src" --exclude=.git --exclude="$LSMCONV_OBJ_PREFIX*" -cf - . | tar -C "$tmp" -xf -
		top=$tmp
	else
		tar -C "$tmp" -xf "$src"
		top=$tmp
		if ! is_kernel_tree "$top"; then
			top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d)
		fi
	fi
	is_kernel_tree "$top" || { rm -rf "$tmp"; die_usage "$src: not a kernel tree"; }
	grep -qs 'struct security_operations' "$top/include/linux/security.h" "$top/include/linux/lsm_hooks.h" ||
		{ rm -rf "$tmp"; die_usage "$src: no struct security_operations: not a pre-stacking (pre-4.2) tree"; }
	lsmconv_git -C "$top" init -q
	lsmconv_git -C "$top" add -f -A
	lsmconv_git -C "$top" commit -q -m "linux-$(kernel_version "$top") (pre-stacking, pristine)"
	echo "$key" >"$top/.git/lsmconv-source"
	mv "$top" "$base"
	rm -rf "$tmp"
	record 1 pass "$base ($(kernel_version "$base"))"
}

# step 2: the series, stacked in the tree's own version
step_series() {
	local rc=0
	"$R/convert.sh" series --baseline "$work/base" --own --out "$work/series" \
		--work "$work/work" --force >"$work/logs/series.log" 2>&1 || rc=$?
	case $rc in
	0) record 2 pass "$(grep -c '' < <(ls "$work/series"/[0-9]*.patch)) files in $work/series, nothing left for a human" ;;
	1) record 2 pass "$work/series written; $(grep -m1 'item(s) left' "$work/logs/series.log" | sed 's/^series: //') (report.md)" ;;
	*) record 2 fail "convert.sh series --own failed: $(tail -n 2 "$work/logs/series.log" | paste -sd' ' -)" ;;
	esac
}

# step 3: against the seeds
step_compare() {
	local rc=0
	if [ ! -d "$seeds" ]; then
		record 3 skip "no seeds at $seeds (the v21 patches; ../shared/seeds next to the repository)"
		return
	fi
	if [ ! -d "$work/work/tree/.git" ]; then
		record 3 skip "no series tree (step 2)"
		return
	fi
	"$R/verify/v21cmp.py" --base "$work/base" --seeds "$seeds" --ours "$work/work/tree" \
		--md "$work/compare.md" >"$work/compare.txt" 2>"$work/logs/compare.log" || rc=$?
	case $rc in
	0) record 3 pass "every difference from the seeds has a documented reason ($work/compare.md)" ;;
	1) record 3 fail "differences without a documented reason, or defects: see $work/compare.md" ;;
	# the tree is not the one v21 was written for (V21_TREE=): nothing to compare
	2) record 3 skip "$(tail -n 1 "$work/logs/compare.log")" ;;
	*) record 3 fail "verify/v21cmp.py exited $rc: $(tail -n 1 "$work/logs/compare.log")" ;;
	esac
}

# step 4: build and boot
step_verify() {
	local rc=0
	"$R/verify/pipeline.sh" --own --baseline "$work/base" --series "$work/series" \
		--work "$work/verify" --force || rc=$?
	if [ "$rc" -eq 0 ]; then
		record 4 pass "$work/verify/report.md"
	else
		record 4 fail "see $work/verify/report.md"
	fi
}

main() {
	local i status=0
	parse_args "$@"
	on_interrupt ''
	local fns=("" step_tree step_series step_compare step_verify)
	for i in 1 2 3 4; do
		T0=$(date +%s)
		if selected "$i"; then
			progress "$i" 4 "${fns[$i]#step_}"
			"${fns[$i]}"
		else
			record "$i" skip "not selected (--steps $steps)"
		fi
		[ "${RESULT[$i]}" != fail ] || status=$EXIT_FAILED
	done
	echo
	for i in 1 2 3 4; do
		printf '%s %-8s %-5s %5ss  %s\n' "$i" "${fns[$i]#step_}" "${RESULT[$i]}" "${SECS[$i]}" "${DETAIL[$i]}"
	done
	[ ! -f "$work/compare.md" ] || { echo; cat "$work/compare.md"; }
	return $status
}

main "$@"

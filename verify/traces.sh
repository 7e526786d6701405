#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot one kernel once per LSM stack and print the combined decision trace:
#
#   case <stack>/<lsm>.<name> <allow|deny> <errno-name or 0>
#
# so that two kernels compare with one command:
#
#   verify/traces.sh --kernel A/bzImage --work build/ta > a.trace
#   verify/traces.sh --kernel B/bzImage --work build/tb > b.trace
#   verify/compare.sh a.trace b.trace
#
# usage: verify/traces.sh --kernel BZIMAGE --work DIR [--mutant] [--timeout S]
#          [--variants FILE | --stack NAME=ARGS...] [--tests LIST]
#          [--add HOSTPATH:GUESTPATH]... [--tree TREE --suite DIR]
#
# The suite is built for the kernel's source tree TREE into DIR (make -C
# verify TREE= O=: its policy version, classes, AppArmor features and
# expectations are TREE's); without them for the distro tree into
# build/verify.
# The stacks: by default one per row of qemu-boot/variants.tsv (NAME, booted
# with lsm=LIST; one exclusive major each, TOMOYO stacked with it), or those
# of --variants FILE (same format); --stack NAME=ARGS (repeatable) replaces
# them by boots with the kernel arguments ARGS, e.g. --stack
# selinux="security=selinux" for a legacy kernel.  TOMOYO's loader
# parameters and lsmtest= are always added.
# Every boot runs every suite (the inactive majors skip), or the guest tests
# of --tests LIST; --add puts more files into the initramfs (e.g. selftests).
# The boot logs stay in DIR (<stack>.log, <stack>.log.tap) with the verdict
# line of qemu-boot/run.sh in <stack>.verdict.  Exits 3 (EXIT_FAILED) if a boot produced
# no result, 0 otherwise (the decisions are for compare.sh to judge).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"

usage() {
	echo "usage: ${0##*/} --kernel BZIMAGE --work DIR [--mutant] [--timeout S]" \
		"[--variants FILE | --stack NAME=ARGS...] [--tests LIST] [--add HOST:GUEST]..." \
		"[--tree TREE --suite DIR]" >&2
	exit "$EXIT_USAGE"
}

kernel='' work='' mutant=() timeout=180 variants=$root/qemu-boot/variants.tsv
tests="capability,tomoyo,selinux,smack,apparmor,yama"
stacks=() extra=() suite_tree='' suite_out=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) need_value "$@"; kernel=$2; shift 2 ;;
	--work) need_value "$@"; work=$2; shift 2 ;;
	--mutant) mutant=(--mutant); shift ;;
	--timeout) need_value "$@"; timeout=$2; shift 2 ;;
	--variants) need_value "$@"; variants=$2; shift 2 ;;
	--stack) need_value "$@"; stacks+=("$2"); shift 2 ;;
	--tests) need_value "$@"; tests=$2; shift 2 ;;
	--add) need_value "$@"; extra+=(--add "$2"); shift 2 ;;
	--tree) need_value "$@"; suite_tree=$2; shift 2 ;;
	--suite) need_value "$@"; suite_out=$2; shift 2 ;;
	-h | --help) show_help ;;
	*) usage ;;
	esac
done
{ [ -n "$kernel" ] && [ -n "$work" ]; } || usage
# One without the other would put one tree's suite where another's is kept.
{ [ -z "$suite_tree" ] && [ -z "$suite_out" ]; } || { [ -n "$suite_tree" ] && [ -n "$suite_out" ]; } || usage
[ -f "$kernel" ] || { echo "${0##*/}: $kernel: no such kernel" >&2; exit "$EXIT_USAGE"; }

# read_variants FILE: "NAME=lsm=LIST" for each row of a variants.tsv.
read_variants() {
	[ -r "$1" ] || { echo "${0##*/}: $1: cannot read" >&2; exit "$EXIT_USAGE"; }
	awk -F'\t' '!/^#/ && NF >= 2 { print $1 "=lsm=" $2 }' "$1"
}
if [ ${#stacks[@]} -eq 0 ]; then
	mapfile -t stacks < <(read_variants "$variants")
	[ ${#stacks[@]} -gt 0 ] || { echo "${0##*/}: $variants: no stacks" >&2; exit "$EXIT_USAGE"; }
fi

mkdir -p "$work"
if [ -n "$suite_tree" ]; then
	TREE=$(realpath "$suite_tree") O=$(realpath -m "$suite_out") \
		"$here/stage.sh" "${mutant[@]}" "$work/stage" >"$work/adds"
else
	"$here/stage.sh" "${mutant[@]}" "$work/stage" >"$work/adds"
fi
adds=()
while IFS= read -r a; do
	adds+=(--add "$a")
done <"$work/adds"
"$root/qemu-boot/build-initramfs.sh" --out "$work/initramfs.cpio.gz" \
	"${adds[@]}" "${extra[@]}" >/dev/null

tomoyo="TOMOYO_trigger=/lsmverify/lsmverify TOMOYO_loader=/lsmverify/tomoyo-loader"
status=0
for s in "${stacks[@]}"; do
	name=${s%%=*} args=${s#*=}
	if [ -z "$name" ] || [ "$name" = "$s" ]; then usage; fi
	verdict=$("$root/qemu-boot/run.sh" --kernel "$kernel" \
		--initrd "$work/initramfs.cpio.gz" --log "$work/$name.log" \
		--timeout "$timeout" --append "$args $tomoyo lsmtest=$tests") || true
	echo "$verdict" >"$work/$name.verdict"
	echo "$name: $verdict" >&2
	tap=$work/$name.log.tap
	if ! grep -q '^# lsmtest done:' "$tap" 2>/dev/null; then
		echo "${0##*/}: $name: the guest produced no result (see $work/$name.log)" >&2
		status=$EXIT_FAILED
		continue
	fi
	tr -d '\r' <"$tap" |
		sed -n "s@^# case \\([^ ]* \\(allow\\|deny\\) [^ ]*\\)\$@case $name/\\1@p"
done
exit "$status"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot one kernel with each exclusive major (the harness's stacks, TOMOYO
# stacked with each) and print the combined decision trace:
#
#   case <major>/<lsm>.<name> <allow|deny> <errno-name or 0>
#
# so that two kernels compare with one command:
#
#   verify/traces.sh --kernel A/bzImage --work build/ta > a.trace
#   verify/traces.sh --kernel B/bzImage --work build/tb > b.trace
#   verify/compare.sh a.trace b.trace
#
# usage: verify/traces.sh --kernel BZIMAGE --work DIR [--mutant] [--timeout S]
#
# Every boot runs every suite (the inactive majors skip).  The boot logs stay
# in DIR (<major>.log, <major>.log.tap).  Exits 1 if a boot produced no
# result, 0 otherwise (the decisions themselves are for compare.sh to judge).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

usage() {
	echo "usage: ${0##*/} --kernel BZIMAGE --work DIR [--mutant] [--timeout S]" >&2
	exit 2
}

kernel='' work='' mutant=() timeout=180
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?}; shift 2 ;;
	--work) work=${2:?}; shift 2 ;;
	--mutant) mutant=(--mutant); shift ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	*) usage ;;
	esac
done
{ [ -n "$kernel" ] && [ -n "$work" ]; } || usage
[ -f "$kernel" ] || { echo "${0##*/}: $kernel: no such kernel" >&2; exit 2; }

mkdir -p "$work"
"$here/stage.sh" "${mutant[@]}" "$work/stage" >"$work/adds"
adds=()
while IFS= read -r a; do
	adds+=(--add "$a")
done <"$work/adds"
"$root/qemu-boot/build-initramfs.sh" --out "$work/initramfs.cpio.gz" "${adds[@]}" >/dev/null

tomoyo="TOMOYO_trigger=/lsmverify/lsmverify TOMOYO_loader=/lsmverify/tomoyo-loader"
tests="capability,tomoyo,selinux,smack,apparmor,yama"
status=0
for major in selinux smack apparmor; do
	lsm="lockdown,yama,loadpin,safesetid,$major,tomoyo,landlock"
	verdict=$("$root/qemu-boot/run.sh" --kernel "$kernel" \
		--initrd "$work/initramfs.cpio.gz" --log "$work/$major.log" \
		--timeout "$timeout" --append "lsm=$lsm $tomoyo lsmtest=$tests") || true
	echo "$major: $verdict" >&2
	tap=$work/$major.log.tap
	if ! grep -q '^# lsmtest done:' "$tap" 2>/dev/null; then
		echo "${0##*/}: $major: the guest produced no result (see $work/$major.log)" >&2
		status=1
		continue
	fi
	tr -d '\r' <"$tap" |
		sed -n "s@^# case \\([^ ]* \\(allow\\|deny\\) [^ ]*\\)\$@case $major/\\1@p"
done
exit "$status"

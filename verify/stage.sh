#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Lay out lsmverify for the guest initramfs and print the build-initramfs.sh
# --add arguments, one HOSTPATH:GUESTPATH a line.
#
# usage: [TREE=TREE] [O=DIR] verify/stage.sh [--mutant] OUTDIR
#
# builds the suite first (make -C verify: for the kernel tree TREE into O,
# default the distro tree into build/verify), then
#   OUTDIR/lsmverify/            -> /lsmverify (the program, policies,
#                                   expectations, tomoyo-loader)
#   OUTDIR/lsmtest/SUITE         -> /lsmtest/SUITE (symlinks to the program)
#
# --mutant stages the mutant policies (each allows one case that the real
# policy denies) under the real names: the negative test boots that.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
O=${O:-$root/build/verify}
suites=(capability yama selinux smack tomoyo apparmor)

case ${1:-} in
-h | --help)
	sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"	# --help: the header, on stdout
	exit 0
	;;
esac
mutant=false
if [ "${1:-}" = --mutant ]; then
	mutant=true
	shift
fi
{ [ $# -eq 1 ] && [ "${1#-}" = "$1" ]; } || { echo "usage: ${0##*/} [--mutant] OUTDIR" >&2; exit 2; }
out=$1

if [ -n "${TREE:-}" ]; then
	make -s -C "$here" TREE="$TREE" O="$O" >&2
else
	make -s -C "$here" O="$O" >&2
fi

pick() {	# pick NAME.EXT -> the real or the mutant build product
	local base=${1%.*} ext=${1##*.}
	if $mutant; then
		echo "$O/$base-mutant.$ext"
	else
		echo "$O/$1"
	fi
}

rm -rf "$out"
mkdir -p "$out/lsmverify"/{expect,selinux,apparmor,smack,tomoyo} "$out/lsmtest"
d=$out/lsmverify
install -m 0755 "$O/lsmverify" "$d/lsmverify"
ln -s lsmverify "$d/tomoyo-loader"
install -m 0644 "$O"/expect/*.txt "$d/expect/"
install -m 0644 "$(pick selinux/policy.bin)" "$d/selinux/policy.bin"
install -m 0644 "$(pick apparmor/profiles.bin)" "$d/apparmor/profiles.bin"
install -m 0644 "$(pick smack/rules.txt)" "$d/smack/rules.txt"
install -m 0644 "$O/tomoyo/profile.txt" "$d/tomoyo/profile.txt"
install -m 0644 "$(pick tomoyo/domain_policy.txt)" "$d/tomoyo/domain_policy.txt"
echo "$d:/lsmverify"
for s in "${suites[@]}"; do
	ln -s ../lsmverify/lsmverify "$out/lsmtest/$s"
	echo "$out/lsmtest/$s:/lsmtest/$s"
done

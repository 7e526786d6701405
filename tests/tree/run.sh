#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Tree preparation and the repository's own hygiene: the distro tree is a
# one-commit git repo and stays clean, a second run changes nothing, a
# directory that is not a kernel tree is refused without writing anything,
# a config fragment that loses an option is refused by name, and the shell
# code is shellcheck-clean.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"
cd "$root"
tree=$LSMCONV_DISTRO_TREE
echo "TAP version 13"

out=$(scripts/tree.sh 2>&1)
tap_diag "$out"
tap_check "tree.sh names the distro tree and its version" \
	grep -qE "^tree: $LSMCONV_DISTRO_TREE \\([0-9]+\\.[0-9]+\\.[0-9]+\\)\$" <<<"$out"
tap_check "the distro tree is a git repo with exactly one commit" \
	test "$(git -C "$tree" rev-list --count HEAD)" -eq 1
head1=$(git -C "$tree" rev-parse HEAD)
out=$(scripts/tree.sh 2>&1)
same_tree() {
	! grep -q unpacking <<<"$out" && [ "$(git -C "$tree" rev-parse HEAD)" = "$head1" ]
}
tap_check "a second tree.sh run unpacks nothing and keeps the commit" same_tree
tap_check "builds are out of tree: the distro tree has no changes" \
	test -z "$(git -C "$tree" status --porcelain | head -1)"

# failed_saying TEXT: the last command failed and its output has TEXT.
failed_saying() {
	[ "$rc" -ne 0 ] && grep -qF -- "$1" <<<"$out"
}

# TARGET= picks a distro tree named in scripts/lib.sh; any other is refused
# before anything runs (make) or is written (the scripts, exit 2).
out=$(make -s tree TARGET=5.99 2>&1) && rc=0 || rc=$?
tap_check "make TARGET=<unknown> fails naming the targets" \
	failed_saying "TARGET=5.99: not one of the distro targets (6.1 6.12)"
out=$(LSMCONV_TARGET=5.99 scripts/tree.sh 2>&1) && rc=0 || rc=$?
tap_check "tree.sh with an unknown LSMCONV_TARGET: exit 2, naming it" \
	test "$rc" -eq 2 -a -n "$(grep -F 'TARGET=5.99: not one of the distro targets' <<<"$out")"
tap_check "TARGET=6.12 names Debian's linux-source-6.12 tree" \
	test "$(LSMCONV_TARGET=6.12 bash -c '. scripts/lib.sh; echo "$LSMCONV_DISTRO_TREE"')" = "$root/build/linux-source-6.12"

junk=$(mktemp -d)
echo "not a kernel" >"$junk/README"
before=$(ls -lA --time-style=full-iso "$junk")
out=$(make -s tree TREE="$junk" 2>&1) && rc=0 || rc=$?
tap_diag "$out"
tap_check "make tree TREE=<not a kernel tree> fails" test "$rc" -ne 0
tap_check "the error names the directory and says why" \
	grep -qF "$junk: not a kernel tree" <<<"$out"
tap_check "nothing was written there" \
	test "$before" = "$(ls -lA --time-style=full-iso "$junk")"
# A setup or input error is exit 2 (scripts/lib.sh EXIT_USAGE), never 1
# ("something left for a human"), in every command that checks its input.
# setup_error TEXT: the last command exited 2 and its output has TEXT.
setup_error() {
	[ "$rc" -eq 2 ] && grep -qF -- "$1" <<<"$out"
}
out=$(qemu-boot/build-kernel.sh --tree "$junk" --name junk 2>&1) && rc=0 || rc=$?
tap_check "build-kernel.sh refuses it too, exit 2" setup_error "$junk: not a kernel tree"
tap_check "... without creating build/kernels/junk" test ! -e build/kernels/junk
out=$(cocci/rewind/rewind.sh --tree "$junk" --out "$junk/out" 2>&1) && rc=0 || rc=$?
tap_check "rewind.sh refuses it, exit 2" setup_error "$junk: not a kernel tree"
out=$(qemu-boot/build-initramfs.sh --out "$junk/i.cpio.gz" --add "$junk/none:/x" 2>&1) && rc=0 || rc=$?
tap_check "build-initramfs.sh: a missing --add source is exit 2, naming it" setup_error "$junk/none does not exist"
out=$(qemu-boot/build-kernel.sh --tree "$tree" --name junk --fragment "$junk/none.config" 2>&1) && rc=0 || rc=$?
tap_check "build-kernel.sh: a missing fragment is exit 2, naming it" setup_error "$junk/none.config: no such config fragment"
rm -rf "$junk"

# TREE in the Makefile: an empty TREE= is an error (it used to unpack the
# distro tree silently), and a path with a space is one path (it used to be
# split into two arguments, "usage" from tree.sh).
out=$(make -s tree TREE= 2>&1) && rc=0 || rc=$?
tap_check "make tree TREE= (empty) fails, saying TREE is empty" failed_saying "TREE is empty"
spaced=$(mktemp -d)
fake="$spaced/a tree"
mkdir -p "$fake/include/linux" "$fake/security"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$fake/Makefile"
: >"$fake/Kconfig"
out=$(make -s tree TREE="$fake" 2>&1) && rc=0 || rc=$?
tap_diag "$out"
tap_check "make tree TREE='<path with a space>' checks that one tree" \
	grep -qxF "tree: $(realpath "$fake") (6.1.0)" <<<"$out"
rm -rf "$spaced"

# A fragment whose option cannot survive olddefconfig (LoadPin needs BLOCK,
# which tinyconfig leaves off and this fragment does not turn on).
# A second fragment overrides the first's CONFIG_LSM (merge_config.sh: the
# later wins, as make port's fragment does over lsm.config): only the last
# setting must survive.  --seed with a directory that is no finished build:
# a cold build, saying why.
frag=$(mktemp --suffix=.config)
frag2=$(mktemp --suffix=.config)
printf 'CONFIG_SECURITY=y\nCONFIG_SYSFS=y\nCONFIG_MULTIUSER=y\nCONFIG_SECURITY_LOADPIN=y\nCONFIG_LSM="yama"\n' >"$frag"
printf 'CONFIG_LSM="capability"\n' >"$frag2"
rm -rf build/kernels/fragcheck "$tree/.lsmconv-obj-fragcheck"
out=$(qemu-boot/build-kernel.sh --tree "$tree" --name fragcheck --fragment "$frag" --fragment "$frag2" \
	--seed "$tree/Documentation" 2>&1) && rc=0 || rc=$?
tap_diag "$(tail -n 3 <<<"$out")"
tap_check "a fragment option lost to olddefconfig stops the build, naming it" \
	failed_saying "CONFIG_SECURITY_LOADPIN=y' did not survive"
not_lost_yama() { ! grep -qF 'CONFIG_LSM="yama"' <<<"$out"; }
tap_check "an option a later fragment overrides is not reported lost" not_lost_yama
tap_check "--seed with no finished build there: a cold build, saying why" \
	grep -qF "fragcheck: cold build: $tree/Documentation is not a finished kernel build" <<<"$out"
rm -rf build/kernels/fragcheck "$tree/.lsmconv-obj-fragcheck"
# --seed with the distro's kernel lsm (built by tests/boot): the new object
# directory starts as its copy (the build still stops at the lost option).
lsmobj=$(realpath -m build/kernels/lsm)
if [ -f "$lsmobj/arch/x86/boot/bzImage" ]; then
	out=$(qemu-boot/build-kernel.sh --tree "$tree" --name fragcheck --fragment "$frag" --seed build/kernels/lsm 2>&1) && rc=0 || rc=$?
	seeded() { grep -qF "fragcheck: starts from the objects of $lsmobj" <<<"$out" && [ -f "$tree/.lsmconv-obj-fragcheck/security/security.o" ]; }
	tap_check "--seed with the lsm kernel of the same tree: the objects are copied" seeded
else
	tap_skip "--seed with the lsm kernel of the same tree" "no $lsmobj/arch/x86/boot/bzImage (make kernel)"
fi
rm -rf "$frag" "$frag2" build/kernels/fragcheck "$tree/.lsmconv-obj-fragcheck"

# ccache_log_begin/count (scripts/lib.sh): a build counts its own
# compilations only, not those of a build running beside it (make check's two
# lanes).  Here: one compilation counted, another at the same time (outside the
# log) not.  The breakage it catches: counting by the cache-wide counters, as
# before, gives 2.
own_count() {
	bash -c '. scripts/lib.sh
		command -v ccache >/dev/null || exit 1
		d=$(mktemp -d)
		printf "int a%s;\n" "$$" >"$d/a.c"
		printf "int b%s;\n" "$$" >"$d/b.c"
		ccache_log_begin "$d/log"
		ccache gcc -c "$d/a.c" -o "$d/a.o" &
		(unset CCACHE_STATSLOG; ccache gcc -c "$d/b.c" -o "$d/b.o")
		wait
		ccache_log_count "$d/log"
		rm -rf "$d"'
}
tap_check "ccache_log_count: a build counts its own compilation, not one beside it" \
	test "$(own_count)" = "0 1"

# ccache_mode and kbuild (scripts/lib.sh): kernels of the distro tree's
# version (the baseline and the series take their objects from its kernel
# under another config) are looked up through the preprocessor, every other
# tree's in depend mode; kbuild hands the mode to ccache.  A stub make on
# PATH prints what kbuild gave it.
other=$(mktemp -d)
printf 'VERSION = 5\nPATCHLEVEL = 99\nSUBLEVEL = 0\nEXTRAVERSION =\n' >"$other/Makefile"
mkdir -p "$other/bin" "$other/include/linux"
: >"$other/include/linux/lsm_hook_defs.h"
printf '#!/bin/sh\nenv | grep -E "^CCACHE_(NO)?DEPEND=" | sort\n' >"$other/bin/make"
chmod +x "$other/bin/make"
kbuild_env() {
	PATH="$other/bin:$PATH" bash -c '. scripts/lib.sh; kbuild "$1" "$1/o"' _ "$1"
}
tap_check "kbuild: the distro tree's kernels in ccache's preprocessor mode (CCACHE_NODEPEND)" \
	test "$(kbuild_env "$tree")" = CCACHE_NODEPEND=1
tap_check "kbuild: another kernel version's in depend mode (CCACHE_DEPEND)" \
	test "$(CCACHE_NODEPEND=1 kbuild_env "$other")" = CCACHE_DEPEND=1
# a pre-stacking tree (4.0: make v21's and make port's legacy kernels share
# objects under two configurations)
rm "$other/include/linux/lsm_hook_defs.h"
tap_check "kbuild: a pre-stacking tree's kernels in preprocessor mode (CCACHE_NODEPEND)" \
	test "$(kbuild_env "$other")" = CCACHE_NODEPEND=1
rm -rf "$other"

out=$(scripts/deps.sh 2>&1)
tap_check "deps.sh a second time installs nothing" grep -q 'all [0-9]* packages present' <<<"$out"

if command -v shellcheck >/dev/null; then
	mapfile -t files < <(git ls-files '*.sh' .ci/run qemu-boot/guest/init qemu-boot/guest/lsmtest-init 'qemu-boot/guest/tests/*')
	out=$(shellcheck -x "${files[@]}" 2>&1) && rc=0 || rc=$?
	[ "$rc" -eq 0 ] || tap_diag "$out"
	tap_check "shellcheck is clean on ${#files[@]} committed shell files" test "$rc" -eq 0
else
	tap_skip "shellcheck" "shellcheck not installed"
fi
tap_done

# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# What an old kernel tree needs to build with Debian 12's gcc 12 / binutils
# 2.40 and to boot under QEMU, without changing the tree: the source tree
# stays byte-identical (it is diffed and committed), so every fix is a make
# argument or a file written into the object directory (O=).  Source it
# (after scripts/lib.sh, whose LSMCONV_CC it reads); it defines functions only.
#
#   compat_prepare TREE OBJDIR   write the files OBJDIR needs (idempotent: a
#                                file is rewritten only when its text changes,
#                                so its mtime does not rebuild anything)
#   compat_make_args TREE        print the extra make arguments, one a line;
#                                pass them to every make of TREE, after
#                                kbuild's own CC= (kbuild TREE OBJDIR ARGS...
#                                puts ARGS last, and make's last CC= wins)
#
# Each fix is keyed on the tree's VERSION.PATCHLEVEL (its Makefile) and given
# only to trees older than the upstream release that has the fix; 6.1 and
# 6.12 get nothing.  Measured on Linux 4.0 (linux-4.0-v21base) with the
# configuration tinyconfig + qemu-boot/config/legacy-4.0.config.

# compat_kver TREE: the tree's VERSION.PATCHLEVEL as one number, 4.0 -> 4000,
# 6.12 -> 6012 (0 when the Makefile has neither).
compat_kver() {
	awk -F' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		END { print v * 1000 + p }' "$1/Makefile"
}

# compat_before TREE MAJOR MINOR: true when TREE is older than MAJOR.MINOR.
compat_before() {
	[ "$(compat_kver "$1")" -lt $(($2 * 1000 + $3)) ]
}

# compat_cc_major: the major version of the gcc the build runs ($LSMCONV_CC,
# "ccache gcc" or "gcc").
compat_cc_major() {
	local cc
	read -ra cc <<<"${LSMCONV_CC:-gcc}"
	"${cc[@]}" -dumpversion | awk -F. '{ print $1 }'
}

# compat_write FILE TEXT: FILE holds TEXT (and a final newline) afterwards;
# it is written, through a temporary sibling, only when its text differs.
compat_write() {
	local f=$1 text=$2
	if [ -f "$f" ] && [ "$(cat "$f")" = "$text" ]; then return 0; fi
	mkdir -p "$(dirname "$f")"
	printf '%s\n' "$text" >"$f.tmp.$$"
	mv -f "$f.tmp.$$" "$f"
}

compat_prepare() {
	local tree=$1 obj=$2 major have v
	# --- gcc >= 6: linux/compiler-gccN.h -----------------------------------
	# Without it: every compilation stops at once, include/linux/compiler-gcc.h
	# includes linux/compiler-gcc<__GNUC__>.h and 4.0 has only 3, 4 and 5
	# ("fatal error: linux/compiler-gcc12.h: No such file or directory").
	# Mirrors cb984d101b30 ("compiler-gcc: integrate the various
	# compiler-gcc[345].h files"), first in v4.2, after which compiler-gcc.h
	# includes no per-version header.  The file written here is our own two
	# lines that include the tree's newest per-version header; it lives in
	# OBJDIR/include/linux, which a 4.0 O= build puts on the include path
	# (LINUXINCLUDE's -Iinclude, after $(srctree)/include, where the name is
	# absent).
	if compat_before "$tree" 4 2; then
		major=$(compat_cc_major)
		have=''
		for v in 5 4 3; do
			if [ -f "$tree/include/linux/compiler-gcc$v.h" ]; then have=$v; break; fi
		done
		if [ -n "$have" ] && [ "$major" -gt "$have" ] &&
			[ ! -f "$tree/include/linux/compiler-gcc$major.h" ]; then
			compat_write "$obj/include/linux/compiler-gcc$major.h" \
"/* Written by lsmconv's qemu-boot/compat.sh: this tree knows gcc up to $have. */
#include <linux/compiler-gcc$have.h>"
		fi
	fi
}

compat_make_args() {
	local tree=$1
	# --- gcc built with --enable-default-pie (Debian since gcc 6) -----------
	# Without it: "cc1: error: code model kernel does not support PIC mode"
	# on the first kernel object.  KCFLAGS=-fno-PIE gets the build through
	# but comes too late: every $(call cc-option,...) probe after the arch
	# Makefile's -mcmodel=kernel then fails under the default PIE and drops
	# its flag silently (measured on 4.0: -fno-delete-null-pointer-checks,
	# -fno-strict-overflow, -fconserve-stack, -maccumulate-outgoing-args,
	# --param=allow-store-data-races=0, -Wno-pointer-sign and a dozen more).
	# The flag therefore goes into CC itself, ahead of every flag and probe;
	# a later -fPIC (arch/x86/boot/compressed, the vDSO) still wins there.
	# Mirrors 8ae94224c9d7 ("kbuild: add -fno-PIE") together with its fix
	# c6a385539175 ("kbuild: Steal gcc's pie from the very beginning"), which
	# put -fno-PIE into the first KBUILD_CFLAGS/KBUILD_AFLAGS for exactly this
	# reason; both first in v4.9.
	if compat_before "$tree" 4 9; then
		echo "CC=${LSMCONV_CC:-gcc} -fno-PIE"
	fi
	# --- binutils >= 2.26 relaxes jumps to global symbols --------------------
	# Without it: the kernel halts silently at its first early page fault
	# (copy_bootdata(), before the console exists; QEMU times out with an
	# empty console).  head_64.S builds early_idt_handlers as 32 stubs of
	# 9 bytes each (push, push, jmp rel32) and C indexes them as a
	# [32][9] array; the comment "This is global to keep gas from relaxing
	# the jumps" no longer holds: gas 2.40 emits 2-byte jumps for the last
	# 20 stubs, so the #PF gate lands in vector 15's stub, the handler sees
	# vector 15 and halts.  -mshared makes gas keep the 5-byte form for
	# jumps to global symbols, restoring the 9-byte stride the code assumes.
	# Mirrors 425be5679fd2 ("x86/asm/irq: Stop relying on magic JMP behavior
	# for early_idt_handlers"), which pads each stub to
	# EARLY_IDT_HANDLER_SIZE; first in v4.2.
	if compat_before "$tree" 4 2; then
		echo "KAFLAGS=-Wa,-mshared"
	fi
	# --- Not applied: binutils >= 2.31's 4 KiB max-page-size ---------------
	# Not needed by legacy-4.0.config (booted with RELOCATABLE and SMP on and
	# off).  Needed on 4.0 when CONFIG_DEBUG_RODATA=y (x86_64 defconfig): the
	# linker script starts .data on a 2 MiB boundary, ld packs the file at
	# 4 KiB, so .data's file offset (0xcca000) lies below its place in
	# memory (0xe00000); the decompressor's parse_elf() copies the segments
	# in order inside one buffer, so (read from the program headers) the
	# copy of .data overwrites the init segment's bytes before they are
	# copied.  Measured: the console ends at "Parsing ELF... " and the
	# decompressor starts over.  The fix, measured on defconfig, is the make
	# argument
	#	LDFLAGS_BUILD_ID=--build-id -z max-page-size=0x200000
	# (the top Makefile adds LDFLAGS_BUILD_ID to LDFLAGS_vmlinux, and to
	# the modules' ld -r, where it changes nothing; a LDFLAGS_vmlinux= on the
	# command line would also replace the decompressor's own "-T").  Mirrors e3d03598e8ae ("x86/build/64: Force
	# the linker to use 2MB page size"), first in v4.16.
	# --- GNU make >= 4.3 reads '\#' in a function as '\#' -------------------
	# Without it: every build of the tree compiles every object again
	# ("CC kernel/bounds.s - due to command line change" with V=2), an
	# incremental build of an unchanged 4.0 tree 817 compilations, all of
	# them ccache hits only when nothing else changed.  Kbuild records each
	# command in a .cmd file (cmd_X := ...) through make-cmd, which escapes
	# '#' as $(subst \#,\\\#,...): make 4.3 no longer unescapes '\#' inside a
	# function, so the '#' of -D"KBUILD_STR(s)=#s" goes into the file bare,
	# starts a comment when the file is read back, and the recorded command
	# never equals the current one.  The make arguments give make-cmd the
	# form upstream Kbuild took for make 4.3 ("Kbuild: fix # escaping in .cmd
	# files for future Make": '#' written as $(pound), pound := \#), for a tree
	# whose scripts/Kbuild.include still has the old escape.
	# shellcheck disable=SC2016 # make's $(...), not the shell's
	if grep -qF 'make-cmd = $(call escsq,$(subst \#,\\\#,' "$tree/scripts/Kbuild.include" 2>/dev/null; then
		echo 'pound=#'
		# shellcheck disable=SC2016 # make's $(...), not the shell's
		echo 'make-cmd=$(call escsq,$(subst $(pound),$$(pound),$(subst $$,$$$$,$(cmd_$(1)))))'
	fi
}

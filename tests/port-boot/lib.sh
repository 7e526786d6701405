# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# What tests/port-boot (the ports on 6.1: raw output, finished, equivalence,
# mutation) and tests/port-targets (the finished ports on every other distro
# target) share: the five legacy modules written by us and the check that a
# port's kernel starts from the objects of the target's kernel lsm.
# Sourced after tests/lib.sh, from the repository root.

mods=(unlinkguard ptraceblock credcount uidopen gatekeep)
M=tests/port-boot/modules
specs=()
for m in "${mods[@]}"; do specs+=("$M/$m"); done
# make port's work directory on 6.1; on another target TV it is $port_work-TV.
# shellcheck disable=SC2034 # used by the suites that source this file
port_work=build/port-boot-test

# The target kernel of a make port run starts from the objects of the
# target's kernel lsm when tests/boot built it (build-kernel.sh --seed): the
# object directory of an earlier run is removed first, so that every run
# shows it.  lsm_objdir TREE: that kernel's object directory.
lsm_objdir() {
	bash -c '. scripts/lib.sh && kbuild_objdir "$1" "$(lsm_kernel_name "$1")"' _ "$1"
}
fresh_target_kernel() {	# fresh_target_kernel WORK
	rm -rf "$1/target-tree/$LSMCONV_OBJ_PREFIX$(basename "$1")-target"
}
# check_seeded DESC WORK TREE LOG: LOG says the kernel was seeded from TREE's lsm.
check_seeded() {
	local lo
	lo=$(lsm_objdir "$3")
	if [ ! -f "$lo/arch/x86/boot/bzImage" ]; then
		tap_skip "$1" "no kernel lsm of $3 ($lo: tests/boot builds it)"
		return
	fi
	tap_check "$1" grep -qF "$(basename "$2")-target: starts from the objects of $lo" "$4"
}

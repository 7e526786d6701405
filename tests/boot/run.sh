#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The QEMU harness on the unmodified distro tree: the stack variants and the
# Landlock selftests (qemu-boot/boot-variants.sh), then the harness's own
# negative cases: each verdict must come out when, and only when, it should.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"
cd "$root"

echo "TAP version 13"
tree=$LSMCONV_DISTRO_TREE
if [ ! -d "$tree/.git" ]; then
	tap_skip "boot harness" "no distro tree (run make tree)"
	tap_done
	exit
fi

# variants TREE LABEL: boot-variants.sh on TREE; its TAP re-emitted under our
# numbering (LABEL before each description); all it prints (progress, the
# build steps' errors) is kept in build/boot/LABEL-boot-variants.log, and
# its tail goes into the diagnostics when it fails.  Then every selftest
# suite of scripts/lib.sh (LSMCONV_SELFTESTS) has its line on the
# full-stack variant, with totals; a suite the tree lacks (6.1 has no
# selftests/lsm) is a skip naming the missing directory, never left out.
variants() {
	local vtree=$1 label=$2 line rc=0 st suite suites
	bvlog=build/boot/$label-boot-variants.log
	qemu-boot/boot-variants.sh --tree "$vtree" >"$bvlog" 2>&1 || rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "[0-9]*) tap_ok "$label: ${line#ok * - }" ;;
		"not ok "[0-9]*) tap_not_ok "$label: ${line#not ok * - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$bvlog"
	if [ "$rc" -ne 0 ]; then
		tap_not_ok "$label: boot-variants.sh exits 0 (exit $rc)"
		tap_tail "$bvlog"
	fi
	read -ra suites < <(sed -n 's/^LSMCONV_SELFTESTS="\(.*\)"$/\1/p' scripts/lib.sh)
	for st in "${suites[@]}"; do
		suite=${st%%:*}
		if [ -d "$vtree/tools/testing/selftests/$suite" ]; then
			tap_check "$label: boot-variants.sh reports the $suite selftests on selinux with totals" \
				grep -qE "^(not )?ok [0-9]+ - $suite selftests on selinux \(pass:[0-9]+ " "$bvlog"
		else
			tap_check "$label: boot-variants.sh reports the $suite selftests as a skip: the tree has none" \
				grep -qE "^ok [0-9]+ - $suite selftests on selinux # SKIP .* has no tools/testing/selftests/$suite$" "$bvlog"
		fi
	done
}
mkdir -p build/boot
variants "$tree" "$(basename "$tree")"
# Every other distro target whose tree is unpacked (make check unpacks them):
# its stacks and its own selftest suites on the full stack (6.12: Landlock's
# and selftests/lsm).  tests/port-boot's kernel on that target starts from
# this one (build-kernel.sh --seed).
for tv in $LSMCONV_OTHER_TARGETS; do
	tt=$(distro_tree "$tv")
	if [ -d "$tt/.git" ]; then
		variants "$tt" "$(basename "$tt")"
	else
		tap_skip "the stacks and selftests of $tv" "no $tv tree ($tt: make tree TARGET=$tv)"
	fi
done
bvlog=build/boot/$(basename "$tree")-boot-variants.log

bz=build/kernels/lsm/arch/x86/boot/bzImage
initrd=build/boot/lsm/initramfs.cpio.gz
out=build/boot/harness
mkdir -p "$out"
if [ ! -f "$bz" ] || [ ! -f "$initrd" ]; then
	tap_not_ok "harness cases: kernel or initramfs missing after boot-variants"
	tap_tail "$bvlog"
	tap_done
	exit
fi

not() {
	! "$@" >/dev/null
}

# Kernel builds (docs/architecture.md, "Kernel builds"): the objects of a tree
# lsmconv made sit in a direct child of it, built with srctree=.. through
# ccache, so that ccache can serve copies of the tree at other paths.
objdir=$(readlink -f build/kernels/lsm)
tap_check "build/kernels/lsm links to the tree's own object directory" \
	test "$objdir" = "$(realpath "$tree")/${LSMCONV_OBJ_PREFIX}lsm"
cmd=$objdir/security/.security.o.cmd
tap_check "no command line of security/security.o names the tree's path (srctree=..)" \
	not grep -qF "$(realpath "$tree")/" "$cmd"
tap_check "security/security.o was compiled through ccache" \
	grep -qE '^(saved)?cmd_security/security\.o := ccache gcc ' "$cmd"

# boot NAME ARGS...: run.sh with our kernel; sets $verdict, $rc.
boot() {
	local name=$1
	shift
	verdict=$(qemu-boot/run.sh --kernel "$bz" --initrd "$initrd" --log "$out/$name.log" "$@") &&
		rc=0 || rc=$?
	tap_diag "$name: $verdict"
}
has() {
	case $verdict in *"$1"*) return 0 ;; *) return 1 ;; esac
}
# expect SUBSTRING RC: the verdict line has SUBSTRING and run.sh exited RC.
expect() {
	has "$1" && [ "$rc" -eq "$2" ]
}

boot pass --append "lsm=selinux lsmtest=harness-pass"
tap_check "a passing guest test gives verdict=pass through isa-debug-exit" \
	has "verdict=pass channel=debug-exit"
# run.sh gives every boot no_timer_check (a TCG guest on a loaded host can
# miss the timer check and panic): the kernel must take it, not hand it to
# init as a parameter it does not know
takes_no_timer_check() {
	grep -q 'Kernel command line:.* no_timer_check' "$out/pass.log" &&
		! grep -q 'Unknown kernel command line parameters.*no_timer_check' "$out/pass.log"
}
tap_check "the kernel takes no_timer_check (on its command line, not an unknown parameter)" \
	takes_no_timer_check

boot fail --append "lsm=selinux lsmtest=harness-pass,harness-fail"
tap_check "a failing guest test gives verdict=fail naming it (exit 1)" \
	expect 'verdict=fail channel=debug-exit status=1 failed="harness-fail"' 1

boot missing --append "lsm=selinux lsmtest=no-such-test"
tap_check "a test that is not in the initramfs fails by name" \
	has 'failed="no-such-test"'

boot lsmlist --append "lsm=selinux lsmtest=lsm-list lsmtest.lsm=capability,smack"
tap_check "lsm-list catches a wrong LSM list" has 'verdict=fail channel=debug-exit status=1 failed="lsm-list"'

boot label --append "lsm=smack lsmtest=lsm-label lsmtest.label=kernel"
tap_check "lsm-label catches a wrong label (Smack's is _, not kernel)" has 'failed="lsm-label"'

boot lockdown --append "lsm=lockdown,selinux lockdown=confidentiality lsmtest=harness-fail"
tap_check "under lockdown (no ioperm) the status still comes back, over the serial channel" \
	has 'verdict=fail channel=serial status=1 failed="harness-fail"'

boot landlock-off --append "lsm=selinux lsmtest=landlock"
tap_check "the Landlock totals check fails when Landlock is not active" \
	not qemu-boot/selftest-totals.sh "$out/landlock-off.log.tap"

boot badinit --append "rdinit=/bin/false"
tap_check "an init that exits gives verdict=panic quoting the panic line (exit 2)" \
	expect 'verdict=panic line="Kernel panic - not syncing: Attempted to kill init' 2

boot noroot --append "rdinit=/nonexistent"
tap_check "no init and no root gives verdict=panic quoting the panic line" \
	has 'verdict=panic line="Kernel panic - not syncing: VFS: Unable to mount root fs'

start=$(date +%s)
boot hang --timeout 20 --append "lsm=selinux lsmtest=harness-hang"
elapsed=$(($(date +%s) - start))
tap_check "a guest that never finishes gives verdict=timeout (exit 3)" \
	expect 'verdict=timeout seconds=20' 3
tap_check "the timeout verdict comes within the bound (20 s + 5 s kill grace; took ${elapsed} s)" \
	test "$elapsed" -le 27

verdict=$(qemu-boot/run.sh --kernel "$initrd" --initrd "$initrd" --log "$out/junk.log" --timeout 20) &&
	rc=0 || rc=$?
tap_diag "junk: $verdict"
tap_check "a file that is not a kernel gives verdict=no-output (exit 4)" \
	expect 'verdict=no-output' 4

tap_done

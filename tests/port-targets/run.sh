#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make port (verify/port.sh --finished) on the five modules of
# tests/port-boot, on every distro target but the default (6.12; make check
# unpacks its tree): port.sh ports finished/ again to the target (on 6.12:
# struct lsm_id, __ro_after_init, lsm_count.h), builds it into ONE kernel
# that starts from the objects of the target's kernel lsm (tests/boot builds
# it; build-kernel.sh --seed), boots it with every module stacked, and each
# module must be listed and pass its guest test.
# Kernel builds: build/kernels/port-boot-test-TV-target, incremental.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"
# shellcheck source=tests/port-boot/lib.sh
. "$root/tests/port-boot/lib.sh"
cd "$root"
export PYTHONPATH=$root/cocci

echo "TAP version 13"
work=$port_work
for tv in $LSMCONV_OTHER_TARGETS; do
	tt=$(distro_tree "$tv")
	if [ ! -f "$tt/include/linux/lsm_hook_defs.h" ]; then
		tap_skip "the finished ports on $tv" "no $tv tree ($tt: make tree TARGET=$tv)"
		continue
	fi
	tlog=$work-$tv.out
	rc=0
	fresh_target_kernel "$work-$tv"
	nice -n 10 verify/port.sh --target "$tt" --work "$work-$tv" --baseline none --finished \
		"${specs[@]}" >"$tlog" 2>&1 || rc=$?
	tap_diag "$(grep -E '^\[|built in| verdict=|^build|^boot|port.sh:' "$tlog")"
	tap_check "$tv: make port --finished passes (exit 0)" test $rc = 0
	check_seeded "$tv: the target kernel starts from the objects of $tv's kernel lsm" "$work-$tv" "$tt" "$tlog"
	# Seeded, Kbuild compiles security/ and what CONFIG_LSM touches, not the
	# kernel (about 1,200 compilations cold; objtool relinked in the copy
	# would make it all of them).
	few_compilations() {
		local n
		n=$(sed -n 's/.*ccache: [0-9]* of \([0-9]*\) compilations.*/\1/p' "$tlog" | tail -n 1)
		tap_diag "$tv: $n compilations in the seeded target build"
		[ -n "$n" ] && [ "$n" -lt 400 ]
	}
	# Not skipped when the log lacks the count: a missing count fails.
	# Skipped only when there is no kernel lsm to start from, as
	# check_seeded (then the build is a cold one, not the seeded one).
	lo=$(lsm_objdir "$tt")
	if [ -f "$lo/arch/x86/boot/bzImage" ]; then
		tap_check "$tv: the seeded build compiles fewer than 400 files" few_compilations
	else
		tap_skip "$tv: the seeded build compiles fewer than 400 files" "no kernel lsm of $tt ($lo: tests/boot builds it)"
	fi
	for m in "${mods[@]}"; do
		tap_check "$tv: $m listed in /sys/kernel/security/lsm" \
			grep -q "^# listed: $m\$" "$work-$tv/target-boot.log.tap"
		tap_check "$tv: $m's guest test passes" \
			grep -qE "^ok [0-9]+ - $m\$" "$work-$tv/target-boot.log.tap"
	done
done

tap_done

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot a kernel in QEMU and turn what happens into one verdict.
#
# usage: run.sh --kernel BZIMAGE --initrd CPIO --log FILE
#               [--append "ARGS"] [--timeout SECONDS] [--accel tcg|kvm|auto]
#
# --accel auto (the default) uses what qemu-boot/probe-kvm.sh found on this
# machine, and TCG when no probe has run.
#
# The console (ttyS0) goes to FILE; the guest's TAP, without kernel noise,
# comes back on a second serial port (FILE.tap, LF line ends); the number of failed tests
# comes back as QEMU's exit status through isa-debug-exit.  Prints one line
#
#   verdict=<pass|fail|panic|timeout|no-output> key=value...
#
# and exits 0 pass, 1 fail, 2 panic, 3 timeout, 4 no-output, 5 setup error.
#
# Every boot gets no_timer_check: the x86 timer check (5 ticks in a busy
# wait of 10) can miss under TCG on a loaded host and panic "IO-APIC + timer
# doesn't work!" (4.0, 6.1 and 6.12 all have the parameter).  A guest that
# still dies before its first test result of a cause in
# qemu-boot/environmental.tsv is booted once more; the verdict line then has
# retried="WHAT (REASON)" and the first boot's logs are FILE.first*.  A "not
# ok", a panic after a result, or any other death is never retried.
#
# LSMCONV_QEMU: the QEMU to run (default qemu-system-x86_64; the tests use a
# fake one).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

usage() {
	echo "usage: ${0##*/} --kernel BZ --initrd CPIO --log FILE [--append ARGS] [--timeout S] [--accel tcg|kvm|auto]" >&2
	exit 5
}

kernel='' initrd='' log='' append='' timeout=${LSMCONV_BOOT_TIMEOUT:-120}
accel=${LSMCONV_ACCEL:-auto}
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) show_help ;;
	--kernel) kernel=${2:?}; shift 2 ;;
	--initrd) initrd=${2:?}; shift 2 ;;
	--log) log=${2:?}; shift 2 ;;
	--append) append=${2?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--accel) accel=${2:?}; shift 2 ;;
	*) usage ;;
	esac
done
{ [ -n "$kernel" ] && [ -n "$initrd" ] && [ -n "$log" ]; } || usage
[ -f "$kernel" ] || { echo "verdict=setup-error reason=\"$kernel: no such kernel\""; exit 5; }
[ -f "$initrd" ] || { echo "verdict=setup-error reason=\"$initrd: no such initramfs\""; exit 5; }

# KVM only when a probe has shown it works here (qemu-boot/probe-kvm.sh).
if [ "$accel" = auto ]; then
	accel=$(cat "$LSMCONV_ROOT/build/accel" 2>/dev/null || echo tcg)
fi
qemu=${LSMCONV_QEMU:-qemu-system-x86_64}
table=$LSMCONV_ROOT/qemu-boot/environmental.tsv

mkdir -p "$(dirname "$log")"
tap=$log.tap
rm -f "$log.first" "$log.first.tap" "$log.first.qemu"

quote() {
	printf '"%s"' "$(printf '%s' "$1" | tr -d '"\r' | cut -c1-200)"
}

# boot: one QEMU run; sets verdict (the line, without log=), code (the exit
# code above) and panic (the first panic line, without its timestamp).
boot() {
	local rc summary failed_cases last channel status counts
	: >"$log"
	: >"$tap"
	rc=0
	timeout -k 5 "$timeout" "$qemu" \
		-accel "$accel" -m 1G -smp 1 -display none -no-reboot -nodefaults \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 oops=panic no_timer_check $append" \
		-chardev file,id=con,path="$log" -serial chardev:con \
		-chardev file,id=tap,path="$tap" -serial chardev:tap \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		</dev/null >"$log.qemu" 2>&1 || rc=$?
	# The guest's tty writes CRLF: FILE.tap gets plain LF lines, so that every
	# reader can anchor a line end ("^ok 3 - name$").
	sed -i 's/\r$//' "$tap"

	summary=$(grep -a '^# lsmtest done:' "$tap" | tail -n 1 || true)
	failed_cases=$( (grep -a '^not ok ' "$tap" || true) | sed 's/^not ok [0-9]* - //; s/ #.*//' | paste -sd, -)
	panic=$(grep -a -m1 'Kernel panic - not syncing' "$log" || true)
	panic=${panic#*] }

	if [ -n "$panic" ]; then
		verdict="verdict=panic line=$(quote "$panic")" code=2
		return
	elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		last=$( (grep -a -v '^\s*$' "$log" || true) | tail -n 1)
		verdict="verdict=timeout seconds=$timeout last=$(quote "$last")" code=3
		return
	elif [ ! -s "$log" ]; then
		verdict="verdict=no-output qemu_status=$rc qemu=$(quote "$(tail -n 1 "$log.qemu")")" code=4
		return
	elif [ -z "$summary" ]; then
		verdict="verdict=fail reason=\"guest ended without a result\" qemu_status=$rc" code=1
		return
	fi

	# The status itself: isa-debug-exit gives (failed << 1) | 1; a guest that
	# could not reach the port (lockdown) rebooted, and QEMU exited 0.
	if [ $((rc & 1)) -eq 1 ]; then
		channel=debug-exit status=$((rc >> 1))
	else
		channel=serial status=$(echo "$summary" | sed -n 's/.*, \([0-9]*\) failed.*/\1/p')
	fi
	counts=${summary#\# lsmtest done: }
	if [ "$status" -eq 0 ] && [ -z "$failed_cases" ]; then
		verdict="verdict=pass channel=$channel counts=$(quote "$counts")" code=0
	else
		verdict="verdict=fail channel=$channel status=$status failed=$(quote "$failed_cases") counts=$(quote "$counts")" code=1
	fi
}

# environmental: when the boot just made died of a cause of
# qemu-boot/environmental.tsv before its first test result, print
# "WHAT<TAB>REASON" and succeed; else fail.
environmental() {
	local v before console reason what
	[ "$code" -eq 2 ] || [ "$code" -eq 3 ] || return 1
	! grep -aqE '^(not )?ok [0-9]' "$tap" || return 1
	while IFS=$'\t' read -r v before console reason; do
		case $v in '' | '#'*) continue ;; esac
		case $v:$code in panic:2 | timeout:3) ;; *) continue ;; esac
		[ "$before" != init ] || [ ! -s "$tap" ] || continue
		if [ "$v" = panic ]; then
			[[ $panic == *"$console"* ]] || continue
			what="panic before the first test result: $panic"
		else
			what="timeout after $timeout s before the guest's init printed anything"
		fi
		printf '%s\t%s\n' "$what" "$reason"
		return 0
	done <"$table"
	return 1
}

boot
if first=$(environmental); then
	for f in "$log" "$tap" "$log.qemu"; do mv -f "$f" "${f/#"$log"/$log.first}"; done
	echo "${0##*/}: ${first%%$'\t'*}: the host's doing, not the kernel's (${first#*$'\t'}); booting it once more (first boot: $log.first)" >&2
	boot
	verdict+=" retried=$(quote "${first%%$'\t'*}")"
fi
echo "$verdict log=$log"
exit "$code"

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

mkdir -p "$(dirname "$log")"
tap=$log.tap
: >"$log"
: >"$tap"
set +e
timeout -k 5 "$timeout" qemu-system-x86_64 \
	-accel "$accel" -m 1G -smp 1 -display none -no-reboot -nodefaults \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 oops=panic $append" \
	-chardev file,id=con,path="$log" -serial chardev:con \
	-chardev file,id=tap,path="$tap" -serial chardev:tap \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	</dev/null >"$log.qemu" 2>&1
rc=$?
set -e
# The guest's tty writes CRLF: FILE.tap gets plain LF lines, so that every
# reader can anchor a line end ("^ok 3 - name$").
sed -i 's/\r$//' "$tap"

quote() {
	printf '"%s"' "$(printf '%s' "$1" | tr -d '"\r' | cut -c1-200)"
}
summary=$(grep -a '^# lsmtest done:' "$tap" | tail -n 1 || true)
failed_cases=$( (grep -a '^not ok ' "$tap" || true) | sed 's/^not ok [0-9]* - //; s/ #.*//' | paste -sd, -)
panic=$(grep -a -m1 'Kernel panic - not syncing' "$log" || true)

if [ -n "$panic" ]; then
	echo "verdict=panic line=$(quote "${panic#*] }") log=$log"
	exit 2
elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	last=$( (grep -a -v '^\s*$' "$log" || true) | tail -n 1)
	echo "verdict=timeout seconds=$timeout last=$(quote "$last") log=$log"
	exit 3
elif [ ! -s "$log" ]; then
	echo "verdict=no-output qemu_status=$rc qemu=$(quote "$(tail -n 1 "$log.qemu")") log=$log"
	exit 4
elif [ -z "$summary" ]; then
	echo "verdict=fail reason=\"guest ended without a result\" qemu_status=$rc log=$log"
	exit 1
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
	echo "verdict=pass channel=$channel counts=$(quote "$counts") log=$log"
	exit 0
fi
echo "verdict=fail channel=$channel status=$status failed=$(quote "$failed_cases") counts=$(quote "$counts") log=$log"
exit 1

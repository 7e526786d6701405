# shellcheck shell=bash disable=SC2154 # $t, $root, $target, $input: run.sh's
# SPDX-License-Identifier: GPL-2.0
# Issue 29, area "guests": make port one run at a time, nothing left behind
# by a run that ends early, and guests that cannot be flaky.  Sourced by
# tests/robustness/run.sh (conv, $t, $target, $input, $root and the TAP
# helpers); no kernel is built or booted: QEMU is a fake (LSMCONV_QEMU, a
# script that writes the console and the TAP channel a scenario calls for),
# make port runs on fixture trees that stop it before its build step.
#
# Shown failing on the old code (qemu-boot/run.sh, verify/port.sh and
# scripts/lib.sh of 51b30aa, a worktree run with this file): 22 of the 23
# cases; "exit 2 on a target convert.sh refuses" passed there (it exited 2
# then too, but left its --work: the next case).  Old run.sh ignored
# LSMCONV_QEMU (no-output on the fake kernel), passed no no_timer_check and
# never booted again, and the harness's commands exited 2 or 5 on --help;
# old port.sh took no lock (a second run went on into the
# first one's scratch tree), went on without security/Makefile to a failed
# pipeline (exit 1, "todos left"), left its --work after exit 2 and after a
# signal, and ran its steps in the foreground (a signal stopped nothing until
# the step ended, and a SIGINT to port.sh alone was lost: bash goes on when
# the foreground child did not die of it; old port.sh ended with exit 1).
# Mutations of the new code, each shown: run.sh without the retry (`if
# first=$(environmental)` made `if false`) fails cases 2-6 and 10; every
# panic taken as environmental (the console match made `true`) case 7; the
# first-result check deleted case 9; the "before init" condition of the
# timeout row deleted case 11; port.sh without lock_dir on --work cases
# 16-20; without removing a --work it made cases 15, 21, 22; convert.sh run
# in the foreground (no bg_run) case 23; without the security/Makefile
# check case 13.

mkdir -p "$t/40/bin"
# --- a fake QEMU ------------------------------------------------------------
# FAKE_PLAN: one scenario per boot, in order (the last repeats); every call
# is counted in $t/40/calls and its arguments are appended to $t/40/args.
cat >"$t/40/bin/qemu" <<'EOF'
#!/usr/bin/env bash
set -euo pipefail
con='' tap=''
for a in "$@"; do
	case $a in
	file,id=con,path=*) con=${a#file,id=con,path=} ;;
	file,id=tap,path=*) tap=${a#file,id=tap,path=} ;;
	esac
done
printf '%s\n' "$*" >>"$FAKE_DIR/args"
echo x >>"$FAKE_DIR/calls"
n=$(grep -c '' "$FAKE_DIR/calls")
read -ra plan <<<"$FAKE_PLAN"
s=${plan[$((n - 1))]:-${plan[-1]}}
boot='[    0.000000] Linux version 6.1.0 (fake)'
ioapic="[    0.310000] Kernel panic - not syncing: IO-APIC + timer doesn't work!  Boot with apic=debug and send a report.  Then try booting with the 'noapic' option."
remap="[    0.310000] Kernel panic - not syncing: timer doesn't work through Interrupt-remapped IO-APIC"
kill="[    0.910000] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100"
head=$'TAP version 13\r\n1..1\r\n'
case $s in
pass)
	printf '%s\nTAP version 13\n' "$boot" >"$con"
	printf '%sok 1 - t\r\n# lsmtest done: 1 passed, 0 failed, 0 skipped\r\n' "$head" >"$tap"
	exit 1 ;;
notok)
	printf '%s\nTAP version 13\n' "$boot" >"$con"
	printf '%snot ok 1 - t # exit 1\r\n# lsmtest done: 0 passed, 1 failed, 0 skipped\r\n' "$head" >"$tap"
	exit 3 ;;
ioapic) printf '%s\n%s\n' "$boot" "$ioapic" >"$con" ;;
remap) printf '%s\n%s\n' "$boot" "$remap" >"$con" ;;
kill) printf '%s\n%s\n' "$boot" "$kill" >"$con" ;;
late)
	printf '%s\n%s\n' "$boot" "$ioapic" >"$con"
	printf '%sok 1 - t\r\n' "$head" >"$tap" ;;
stall)
	printf '%s\n' "$boot" >"$con"
	exec sleep 30 ;;
hang)
	printf '%s\n' "$boot" >"$con"
	printf '%s' "$head" >"$tap"
	exec sleep 30 ;;
esac
exit 0
EOF
chmod +x "$t/40/bin/qemu"
: >"$t/40/kernel"
: >"$t/40/initrd"

# guest PLAN [ARGS...]: run.sh with the fake QEMU and PLAN; sets rc, out
# (the verdict line), err, calls (the number of boots).
guest() {
	rm -rf "$t/40/fake" && mkdir -p "$t/40/fake" && : >"$t/40/fake/calls"
	rc=0
	FAKE_DIR=$t/40/fake FAKE_PLAN=$1 LSMCONV_QEMU=$t/40/bin/qemu "$root/qemu-boot/run.sh" \
		--kernel "$t/40/kernel" --initrd "$t/40/initrd" --log "$t/40/fake/con.log" --accel tcg \
		"${@:2}" >"$t/40/stdout" 2>"$t/40/stderr" || rc=$?
	out=$(cat "$t/40/stdout")
	err=$(cat "$t/40/stderr")
	calls=$(grep -c '' "$t/40/fake/calls")
}
has() { case $1 in *"$2"*) return 0 ;; *) return 1 ;; esac; }
hasnt() { ! has "$@"; }

guest pass --append "lsm=selinux lsmtest=t"
tap_check "guests: every boot has no_timer_check on the kernel command line (run.sh, any caller)" \
	grep -qE -- '-append console=ttyS0 .*no_timer_check.* lsm=selinux lsmtest=t' "$t/40/fake/args"

guest "ioapic pass"
tap_check "guests: 'IO-APIC + timer doesn't work' before the first result: booted once more, pass (exit $rc, $calls boots)" \
	test "$rc" -eq 0 -a "$calls" -eq 2 -a -n "$(grep '^verdict=pass' <<<"$out")"
tap_check "guests: ... the verdict names the first boot's panic (retried=...)" \
	has "$out" "retried=\"panic before the first test result: Kernel panic - not syncing: IO-APIC + timer doesn't work!"
tap_check "guests: ... stderr names it with its reason, the first boot's console is kept as LOG.first" \
	test -n "$(grep -F "IO-APIC + timer doesn't work" <<<"$err" | grep -F 'booting it once more')" \
	-a -n "$(grep -F "IO-APIC + timer doesn't work" "$t/40/fake/con.log.first")"

guest "remap pass"
tap_check "guests: 'timer doesn't work through Interrupt-remapped IO-APIC': booted once more, pass (exit $rc, $calls boots)" \
	test "$rc" -eq 0 -a "$calls" -eq 2 -a -n "$(grep -F 'retried="panic before the first test result: Kernel panic - not syncing: timer doesn' <<<"$out")"

guest "ioapic ioapic pass"
tap_check "guests: the environmental panic twice: no third boot, verdict=panic naming both (exit $rc, $calls boots)" \
	test "$rc" -eq 2 -a "$calls" -eq 2 -a -n "$(grep -F "verdict=panic line=\"Kernel panic - not syncing: IO-APIC + timer doesn't work!" <<<"$out" |
		grep -F "retried=\"panic before the first test result: Kernel panic - not syncing: IO-APIC")"

guest "kill pass"
tap_check "guests: a panic no row of qemu-boot/environmental.tsv names is not retried (exit $rc, $calls boot(s))" \
	test "$rc" -eq 2 -a "$calls" -eq 1 -a -n "$(grep -F 'Attempted to kill init' <<<"$out")"

guest "notok pass"
tap_check "guests: a 'not ok' is never retried (exit $rc, $calls boot(s))" \
	test "$rc" -eq 1 -a "$calls" -eq 1 -a -n "$(grep -F 'failed="t"' <<<"$out")"

guest "late pass"
tap_check "guests: an environmental panic after the first test result is not retried (exit $rc, $calls boot(s))" \
	test "$rc" -eq 2 -a "$calls" -eq 1

guest "stall pass" --timeout 1
tap_check "guests: a timeout before the guest's init printed anything is booted once more, pass (exit $rc, $calls boots)" \
	test "$rc" -eq 0 -a "$calls" -eq 2 -a -n "$(grep -F 'retried="timeout after 1 s before' <<<"$out")"

guest "hang pass" --timeout 1
tap_check "guests: a timeout once the guest's tests run is not retried (exit $rc, $calls boot(s))" \
	test "$rc" -eq 3 -a "$calls" -eq 1

# every command of the harness: --help exits 0 with its usage on stdout
helps() {
	local s h
	for s in "$root"/qemu-boot/*.sh; do
		[ -x "$s" ] || continue
		if ! h=$("$s" --help 2>/dev/null) || ! grep -q '^usage: ' <<<"$h"; then
			tap_diag "$s --help: not exit 0 with a usage line on stdout"
			return 1
		fi
	done
}
tap_check "guests: every qemu-boot/*.sh command: --help exits 0 with its usage on stdout" helps

# --- make port: one run at a time ----------------------------------------------
# Fixture targets: $t/40/good (the suite's five files, a Makefile, a
# Kconfig, security/Makefile: convert.sh port works on it, make port stops
# before its build), $t/40/bad (lsm_hook_defs.h and what make port checks
# itself: convert.sh refuses it, exit 2) and $t/40/nomk (good without
# security/Makefile).
# --work outside build/: port.sh also locks build/kernels/.BASENAME-port's
# lock, so the basename is this suite's own (removed at the end).
w40=$t/40/p40-${t##*/}
mkdir -p "$t/40/good" "$t/40/bad/include/linux" "$t/40/bad/security" "$t/40/mod"
cp -a "$target/." "$t/40/good/"
cp -- "$target/include/linux/lsm_hook_defs.h" "$t/40/bad/include/linux/"
for d in good bad; do
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$t/40/$d/Makefile"
	: >"$t/40/$d/Kconfig"
	printf 'obj-y += commoncap.o\n' >"$t/40/$d/security/Makefile"
done
: >"$t/40/bad/security/Kconfig"
cp -a "$t/40/good" "$t/40/nomk"
rm "$t/40/nomk/security/Makefile"
cp -- "$input" "$t/40/mod/"
# port TARGET [ENV=VALUE...]: verify/port.sh on the fixture module; sets rc, err.
port() {
	local tt=$1
	shift
	rc=0
	env "$@" "$root/verify/port.sh" --target "$t/40/$tt" --work "$w40" --baseline none "$t/40/mod:mymod" \
		>"$t/40/port.out" 2>"$t/40/port.err" || rc=$?
	err=$(cat "$t/40/port.err")
}
lockf=$t/40/.${w40##*/}.lsmconv-lock

port nomk
tap_check "make port: a target without security/Makefile: exit 2 at once (got $rc), naming it, nothing written" \
	test "$rc" -eq 2 -a -n "$(grep -F 'no security/Makefile' <<<"$err")" -a ! -e "$w40"

rm -rf "$w40"
port bad
tap_check "make port: a target convert.sh refuses: exit 2 (got $rc), naming convert.sh's failure" \
	test "$rc" -eq 2 -a -n "$(grep -F 'convert.sh failed (exit 2)' <<<"$err")"
tap_check "make port: ... and no --work left behind (nothing written)" test ! -e "$w40"

# hold the lock as another run would (a process of our own, ended below)
(exec 8>>"$lockf" && flock 8 && exec sleep 600) &
holder=$!
for _ in $(seq 1 50); do
	flock -n "$lockf" true || break
	sleep 0.1
done
port bad LSMCONV_LOCK_WAIT=0
tap_check "make port: a second run on a --work in use, LSMCONV_LOCK_WAIT=0: exit 2 at once (got $rc), naming the lock" \
	test "$rc" -eq 2 -a -n "$(grep -F "in use by another lsmconv run" <<<"$err" | grep -F "$lockf")" \
	-a -z "$(grep -F '[1/6]' <<<"$err")"
start=$(date +%s)
port bad LSMCONV_LOCK_WAIT=1
tap_check "make port: LSMCONV_LOCK_WAIT=1: says it waits, then exit 2 (got $rc after $(($(date +%s) - start)) s)" \
	test "$rc" -eq 2 -a -n "$(grep -F 'waiting up to 1 s' <<<"$err")" -a -n "$(grep -F 'still in use' <<<"$err")"

# interrupted while waiting: SIG to port.sh alone
waitsig() {
	local sig=$1 pid
	rm -f "$t/40/wsig.err"
	in_session "$root/verify/port.sh" --target "$t/40/bad" --work "$w40" --baseline none \
		"$t/40/mod:mymod" >/dev/null 2>"$t/40/wsig.err" &
	pid=$!
	signal_mid_run "$sig" "$pid" grep -q 'waiting up to' "$t/40/wsig.err"
}
for sig in INT TERM; do
	waitsig "$sig"
	want=$((128 + $(kill -l "$sig")))
	tap_check "make port: SIG$sig while it waits for the lock: exit $want (got $rc), 'interrupted', no process left ($left)" \
		test "$rc" -eq "$want" -a "$left" -eq 0 -a -n "$(grep -F interrupted "$t/40/wsig.err")"
done

# the other run ends: the waiting one goes on
port bad LSMCONV_LOCK_WAIT=60 &
waiter=$!
# the holder ends once the waiter says it waits (a fixed sleep raced under load)
for _ in $(seq 1 300); do
	grep -qF 'waiting up to 60 s' "$t/40/port.err" 2>/dev/null && break
	sleep 0.1
done
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
wait "$waiter"
tap_check "make port: a run that waited goes on once the other ends (it converts: '[1/6]' after 'waiting')" \
	test -n "$(sed -n '/waiting up to 60 s/,$p' "$t/40/port.err" | grep -F '[1/6] converting')"

# interrupted mid-step: convert.sh (spatch) runs when the signal comes
midsig() {
	local sig=$1 pid
	rm -rf "$w40" "$t/40/msig.err"
	[ -z "${2:-}" ] || mkdir -p "$w40"
	in_session "$root/verify/port.sh" --target "$t/40/good" --work "$w40" --baseline none \
		"$t/40/mod:mymod" >/dev/null 2>"$t/40/msig.err" &
	pid=$!
	signal_mid_run "$sig" "$pid"
}
for sig in INT TERM; do
	midsig "$sig"
	want=$((128 + $(kill -l "$sig")))
	tap_check "make port: SIG$sig while convert.sh runs: exit $want (got $rc), no process left ($left), no --work it made left" \
		test "$rc" -eq "$want" -a "$left" -eq 0 -a ! -e "$w40"
done
# the same in a --work of an earlier run: kept, and the step itself was
# stopped (convert.sh says so in its log; it would have finished with its
# todos had port.sh waited for it)
midsig TERM keep
tap_check "make port: SIGTERM while convert.sh runs in an earlier run's --work: exit 143 (got $rc), the step stopped at once (its log: interrupted), the --work kept" \
	test "$rc" -eq 143 -a -d "$w40" -a -n "$(grep -F interrupted "$w40/mymod/convert.log" 2>/dev/null)"
rm -f "$root/build/kernels/.${w40##*/}-port.lsmconv-lock"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run every test suite (tests/*/run.sh, or those named) and add up their TAP.
# The last line is "N passed, N failed, N skipped".
#
# usage: tests/run.sh [SUITE...]
#
# With no SUITE, the suites of BESIDE run in a second lane, at nice 19, beside
# the others (the first lane, in order).  The kernel builds and the
# single-threaded QEMU guests of the first lane leave one core idle for long
# stretches (link steps, configuration, boots); the second lane takes that
# time instead of adding its own.  The second lane first makes build/baseline
# (make_baseline, tests/lib.sh; tests/pipeline in the first lane waits for it
# there), which nothing changes afterwards.  A BESIDE entry SUITE then runs at
# once: it builds and boots no kernel and touches nothing in build/ that
# another suite writes (the kernels, the guest files); it only reads the
# distro trees and build/baseline.  An entry SUITE:AFTER waits until the
# first lane's suite AFTER has ended: it may build and boot from AFTER's
# kernels, in object directories of its own, but uses nothing that a
# first-lane suite still running beside it writes (tests/lint checks both).
# The second lane's TAP is printed when the first lane has ended.
# LSMCONV_TEST_LANES=1 runs everything in one lane, in order; so does naming
# suites.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1

# The second lane: static suites (no kernel, no guest), then those that wait
# for the first lane's tests/boot and use its kernels.
BESIDE="cocci coccicheck forward port series deps robustness seeds v21cmp v21 tree:boot v21-boot:boot verify:boot port-targets:boot port-boot:boot"
logs=build/test-logs

# A full run writes about CHECK_DISK_GB more into build/ after make check's
# trees are unpacked (the peak, measured on a clean clone: docs/bench.md).
# With less free, suites fail half-way with "No space left on device" (a CI
# run on a nearly full disk did); the free space is said first and last, so
# that such a run reads as what it is.
CHECK_DISK_GB=12
free_gb() { df -Pk build | awk 'NR == 2 { printf "%d", $4 / 1048576 }'; }

# run_suite SUITE QUIET: the suite's TAP into $logs/SUITE.tap (and stdout
# unless QUIET), its exit status and seconds into $logs/SUITE.rc.
run_suite() {
	local s=$1 quiet=$2 script=tests/$1/run.sh log=$logs/$1.tap start rc
	start=$(date +%s)
	if [ ! -x "$script" ]; then
		echo "not ok 1 - suite $s: $script missing" >"$log"
		rc=1
	elif [ "$quiet" = quiet ]; then
		"$script" >"$log" 2>&1 </dev/null
		rc=$?
	else
		"$script" 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]}
	fi
	echo "$rc $(($(date +%s) - start))" >"$logs/$s.rc"
}

# tally SUITE: add the suite's results up and print its summary line.
passed=0 failed=0 skipped=0 broken=()
tally() {
	local s=$1 log=$logs/$1.tap rc secs p sk f
	read -r rc secs <"$logs/$s.rc"
	# an .rc that could not be written (a full disk) is a failed suite
	[[ ${rc:-} =~ ^[0-9]+$ ]] || rc=1
	p=$(grep -cE '^ok [0-9]+' "$log" | tr -d ' ')
	sk=$(grep -cE '^ok [0-9]+ .*# (SKIP|skip)' "$log" | tr -d ' ')
	f=$(grep -cE '^not ok [0-9]+' "$log" | tr -d ' ')
	p=$((p - sk))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - suite $s exited $rc without a failing case"
		f=1
	fi
	[ "$f" -eq 0 ] || broken+=("$s")
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + sk))
	echo "# suite $s: $p passed, $f failed, $sk skipped ($secs s)"
}

mkdir -p "$logs"
if [ $# -eq 0 ]; then
	gb=$(free_gb)
	echo "# disk: $gb GB free in build/ (a full run needs about $CHECK_DISK_GB GB more)"
	[[ ! $gb =~ ^[0-9]+$ ]] || [ "$gb" -ge "$CHECK_DISK_GB" ] ||
		echo "# warning: too little disk: suites will fail with \"No space left on device\"; free some or clean build/ (make clean)"
fi
# The second lane itself (internal): its suites one after the other, quietly;
# SUITE:AFTER first waits for AFTER's .rc (run_suite writes it when AFTER ends).
# It makes build/baseline first, which its suites read; the first lane's
# tests/pipeline waits for it (make_baseline holds a lock).
if [ "${1:-}" = --lane ]; then
	shift
	# setsid gave the lane a session of its own, and with autogroup
	# scheduling (Linux's default) a scheduling group of its own, which
	# shares the CPUs evenly with make check's: a nice value inside it
	# would not yield to the first lane.  The group itself is niced.
	[ ! -w /proc/self/autogroup ] || echo 19 >/proc/self/autogroup 2>/dev/null || true
	# shellcheck source=tests/lib.sh
	. tests/lib.sh
	make_baseline
	for e in "$@"; do
		if [ "${e#*:}" != "$e" ]; then
			until [ -f "$logs/${e#*:}.rc" ]; do sleep 2; done
		fi
		run_suite "${e%%:*}" quiet
	done
	exit 0
fi

if [ $# -gt 0 ]; then
	suites=("$@")
else
	suites=()
	for s in tests/*/run.sh; do
		[ -x "$s" ] && suites+=("$(basename "$(dirname "$s")")")
	done
fi

# The second lane in BESIDE's order; the first lane in the suites' order.
beside=() lanes=() first=()
if [ $# -eq 0 ] && [ "${LSMCONV_TEST_LANES:-2}" != 1 ]; then
	for e in $BESIDE; do
		[[ " ${suites[*]} " == *" ${e%%:*} "* ]] && beside+=("${e%%:*}") lanes+=("$e")
	done
fi
for s in "${suites[@]}"; do
	[[ " ${beside[*]} " == *" $s "* ]] || first+=("$s")
done
# An AFTER that is not in the first lane (no such suite here) is not waited for.
for i in "${!lanes[@]}"; do
	a=${lanes[$i]#*:}
	[ "$a" = "${lanes[$i]}" ] || [[ " ${first[*]} " == *" $a "* ]] || lanes[i]=${lanes[$i]%%:*}
done

lane=''
stop_lane() {
	[ -z "$lane" ] || kill -TERM -- "-$lane" 2>/dev/null
}
if [ ${#beside[@]} -gt 0 ]; then
	# No .rc of an earlier run: the lane waits for this run's.
	for s in "${suites[@]}"; do rm -f "$logs/$s.rc"; done
	# Its own session and process group: an interrupt stops the whole lane.
	setsid nice -n 19 "$0" --lane "${lanes[@]}" </dev/null >"$logs/lane.log" 2>&1 &
	lane=$!
	trap 'stop_lane; exit 130' INT
	trap 'stop_lane; exit 143' TERM
	echo "# suites ${lanes[*]}: running beside the others (nice 19; SUITE:AFTER once AFTER has ended), printed at the end"
fi
for s in "${first[@]}"; do
	echo "# suite $s"
	run_suite "$s" loud
	tally "$s"
done
if [ -n "$lane" ]; then
	wait "$lane"
	trap - INT TERM
	for s in "${beside[@]}"; do
		echo "# suite $s (ran beside)"
		if [ -f "$logs/$s.rc" ]; then
			cat "$logs/$s.tap"
		else
			echo "not ok 1 - suite $s did not finish (see $logs/lane.log)" >"$logs/$s.tap"
			echo "1 0" >"$logs/$s.rc"
			cat "$logs/$s.tap"
		fi
		tally "$s"
	done
fi
[ ${#broken[@]} -eq 0 ] || echo "# failing suites: ${broken[*]} ($(free_gb) GB free in build/ now)"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

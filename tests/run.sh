#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run every test suite (tests/*/run.sh, or those named) and add up their TAP.
# The last line is "N passed, N failed, N skipped".
#
# usage: tests/run.sh [SUITE...]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1

if [ $# -gt 0 ]; then
	suites=("$@")
else
	suites=()
	for s in tests/*/run.sh; do
		[ -x "$s" ] && suites+=("$(basename "$(dirname "$s")")")
	done
fi

mkdir -p build/test-logs
passed=0 failed=0 skipped=0 broken=()
for s in "${suites[@]}"; do
	script=tests/$s/run.sh
	if [ ! -x "$script" ]; then
		echo "not ok - suite $s: $script missing"
		failed=$((failed + 1))
		continue
	fi
	echo "# suite $s"
	start=$(date +%s)
	log=build/test-logs/$s.tap
	"$script" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
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
	echo "# suite $s: $p passed, $f failed, $sk skipped ($(($(date +%s) - start)) s)"
done
[ ${#broken[@]} -eq 0 ] || echo "# failing suites: ${broken[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

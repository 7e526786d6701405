#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fixture runner for lsmconv's semantic patches (TAP 13, see docs/CONTRACTS.md).
#
# usage: tests/cocci/run.sh [PATTERN]
#
# Every tests/cocci/cases/NN-name/ (or only those whose name contains
# PATTERN) holds input.c, expected.c and optionally report.expect (lines
# that must appear, grep -F, in the report) and exit.expect (convert.sh's
# exit status, default 0).  Per case: one test for the output (byte
# comparison and exit status), one for idempotence (converting expected.c
# changes nothing), one per report.expect line.
# TREE=DIR picks the target tree (default build/linux-source-6.1); JOBS=N
# runs N cases at a time (default: the number of CPUs).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CASES="$HERE/cases"
TARGET=${TREE:-$ROOT/build/linux-source-6.1}
PATTERN=${1:-}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 1)}

N=0
FAILED=0
TMP=""

cleanup() {
	if [[ -n "$TMP" && -d "$TMP" ]]; then
		rm -rf -- "$TMP"
	fi
}

# Cases run in parallel and print unnumbered results; main numbers them.
ok() {
	echo "ok - $*"
}

not_ok() {
	echo "not ok - $*"
}

skip() {
	N=$((N + 1))
	echo "ok $N - $1 # SKIP $2"
}

diag() {
	sed 's/^/# /'
}

# convert DIR INPUT: runs convert.sh on DIR/in/input.c; sets RC.
convert() {
	local dir=$1 input=$2
	rm -rf -- "$dir"
	mkdir -p "$dir/in" "$dir/out"
	cp -- "$input" "$dir/in/input.c"
	RC=0
	"$ROOT/convert.sh" file "$dir/in/input.c" --target "$TARGET" \
		--out "$dir/out" --report "$dir/report.md" \
		>"$dir/stdout" 2>"$dir/stderr" || RC=$?
}

run_case() {
	local c=$1 name want_rc line
	name=$(basename -- "$c")
	if [[ ! -f "$c/input.c" || ! -f "$c/expected.c" ]]; then
		not_ok "$name: input.c and expected.c present"
		return
	fi
	want_rc=0
	if [[ -f "$c/exit.expect" ]]; then
		want_rc=$(tr -d '[:space:]' <"$c/exit.expect")
	fi

	convert "$TMP/$name" "$c/input.c"
	if cmp -s -- "$c/expected.c" "$TMP/$name/out/input.c" && [[ $RC == "$want_rc" ]]; then
		ok "$name: output matches expected.c (exit $RC)"
	else
		not_ok "$name: output matches expected.c (exit $RC, want $want_rc)"
		if [[ -f "$TMP/$name/out/input.c" ]]; then
			diff -u -- "$c/expected.c" "$TMP/$name/out/input.c" | head -n 40 | diag || true
		fi
		tail -n 5 "$TMP/$name/stderr" | diag
	fi

	if [[ -f "$c/report.expect" ]]; then
		local shown=0
		while IFS= read -r line || [[ -n "$line" ]]; do
			[[ -n "$line" ]] || continue
			if grep -qF -- "$line" "$TMP/$name/report.md" 2>/dev/null; then
				ok "$name: report has '$line'"
			else
				not_ok "$name: report has '$line'"
				if [[ $shown -eq 0 ]]; then
					if [[ -f "$TMP/$name/report.md" ]]; then
						diag <"$TMP/$name/report.md"
					else
						echo "no report written" | diag
					fi
					shown=1
				fi
			fi
		done <"$c/report.expect"
	fi

	convert "$TMP/$name.again" "$c/expected.c"
	if cmp -s -- "$c/expected.c" "$TMP/$name.again/out/input.c"; then
		ok "$name: idempotent (expected.c converts to itself)"
	else
		not_ok "$name: idempotent (expected.c converts to itself)"
		if [[ -f "$TMP/$name.again/out/input.c" ]]; then
			diff -u -- "$c/expected.c" "$TMP/$name.again/out/input.c" | head -n 40 | diag || true
		fi
		tail -n 5 "$TMP/$name.again/stderr" | diag
	fi
}

# Run the cases, JOBS at a time; each leaves NAME.tap, then NAME.done.
launch() {
	local c running=0
	for c in "$@"; do
		(
			run_case "$c" >"$TMP/$(basename -- "$c").tap" 2>&1 || true
			: >"$TMP/$(basename -- "$c").done"
		) &
		running=$((running + 1))
		if [[ $running -ge $JOBS ]]; then
			wait -n || true
			running=$((running - 1))
		fi
	done
	wait
}

number() {
	local line
	while IFS= read -r line; do
		case "$line" in
		"ok - "*)
			N=$((N + 1))
			echo "ok $N - ${line#ok - }"
			;;
		"not ok - "*)
			N=$((N + 1))
			FAILED=$((FAILED + 1))
			echo "not ok $N - ${line#not ok - }"
			;;
		*) echo "$line" ;;
		esac
	done
}

main() {
	local c cases=()
	echo "TAP version 13"
	for c in "$CASES"/*/; do
		c=${c%/}
		[[ -d "$c" ]] || continue
		if [[ -n "$PATTERN" && $(basename -- "$c") != *"$PATTERN"* ]]; then
			continue
		fi
		cases+=("$c")
	done
	if ! command -v spatch >/dev/null; then
		skip "cocci fixtures" "spatch is not installed"
	elif [[ ! -f "$TARGET/include/linux/lsm_hook_defs.h" ]]; then
		skip "cocci fixtures" "no target tree at $TARGET (make tree)"
	else
		TMP=$(mktemp -d "${TMPDIR:-/tmp}/lsmconv-cocci.XXXXXX")
		trap cleanup EXIT
		launch "${cases[@]}" &
		# Print each case's results in order, as soon as it is done.
		for c in "${cases[@]}"; do
			while [[ ! -e "$TMP/$(basename -- "$c").done" ]]; do
				sleep 0.2
			done
			number <"$TMP/$(basename -- "$c").tap"
		done
		wait
	fi
	echo "1..$N"
	echo "# $((N - FAILED)) passed, $FAILED failed"
	[[ $FAILED -eq 0 ]]
}

main

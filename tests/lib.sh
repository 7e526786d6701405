# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# TAP helpers for tests/*/run.sh: one case, one assertion.
TAP_N=0
TAP_FAILED=0

tap_ok() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $1"
}

tap_not_ok() {
	TAP_N=$((TAP_N + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	echo "not ok $TAP_N - $1"
}

# tap_check DESC CMD...: ok when CMD succeeds.
tap_check() {
	local desc=$1
	shift
	if "$@"; then tap_ok "$desc"; else tap_not_ok "$desc"; fi
}

tap_skip() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $1 # SKIP $2"
}

tap_diag() {
	printf '%s\n' "$@" | sed 's/^/# /'
}

# tap_done: plan line and exit status.
tap_done() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}

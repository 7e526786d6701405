# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# TAP helpers for tests/*/run.sh: one case, one assertion.
TAP_N=0
TAP_FAILED=0
# The distro tree, the distro targets (all, and the others than this one) and the prefix of kernel object
# directories in a tree (scripts/lib.sh is their one home), without sourcing
# scripts/lib.sh's functions into the suite.
# shellcheck source=scripts/lib.sh disable=SC2034
{ read -r LSMCONV_DISTRO_TREE; read -r LSMCONV_OBJ_PREFIX; read -r LSMCONV_TARGETS; read -r LSMCONV_OTHER_TARGETS; } < <(
	. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh" &&
		printf '%s\n' "$LSMCONV_DISTRO_TREE" "$LSMCONV_OBJ_PREFIX" "$LSMCONV_TARGETS" \
			"$(for t in $LSMCONV_TARGETS; do [ "$t" = "$LSMCONV_TARGET" ] || printf '%s ' "$t"; done)")
# distro_tree TARGET: the tree of another distro target.
distro_tree() {
	bash -c '. "$1/scripts/lib.sh" && target_tree "$2"' _ "$(dirname "${BASH_SOURCE[0]}")/.." "$1"
}

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

# in_session CMD...: exec CMD in a session of its own, with SIGINT at its
# default (a background job of a script starts with SIGINT ignored, which
# bash cannot trap; a command in a terminal gets it).  Start it with &: the
# job's PID leads the session.
in_session() {
	exec setsid env --default-signal=INT "$@"
}

# signal_mid_run SIG PID [READY...]: once READY succeeds (default: spatch
# runs in the session that PID leads, a command started with in_session),
# send SIG to PID, wait for it, then for its session to empty (what it
# killed may take a moment under load); sets rc (PID's exit status) and left
# (processes still in the session, listed as diagnostics).
# shellcheck disable=SC2034 # rc and left are the caller's
signal_mid_run() {
	local sig=$1 pid=$2 _
	shift 2
	[ $# -gt 0 ] || set -- pgrep -s "$pid" -x spatch
	for _ in $(seq 1 1200); do
		"$@" >/dev/null 2>&1 && break
		sleep 0.1
	done
	kill "-$sig" "$pid"
	rc=0
	wait "$pid" || rc=$?
	for _ in $(seq 1 100); do
		pgrep -s "$pid" >/dev/null || break
		sleep 0.1
	done
	left=$(pgrep -s "$pid" | wc -l)
	[ "$left" -eq 0 ] || tap_diag "left in the session:" "$(ps -o pid,pgid,stat,etime,args -s "$pid")"
}

tap_diag() {
	printf '%s\n' "$@" | sed 's/^/# /'
}

# tap_tail FILE [N]: the last N (20) lines of FILE as diagnostics: a failing
# case shows the cause, not only "see FILE".
tap_tail() {
	local f=$1 n=${2:-20}
	if [ -s "$f" ]; then
		echo "# last $n lines of $f:"
		tail -n "$n" "$f" | sed 's/^/#   /'
	else
		echo "# $f: empty or missing"
	fi
}

# make_baseline: build/baseline, the rewound distro tree (what make baseline
# makes), when it is missing: make check does not run make baseline, and
# tests/forward and tests/pipeline need it.  rewind.sh's output is kept in
# build/test-logs/make-baseline.log; a failure is a diagnostic (the suites
# then skip, naming the missing baseline).  Run from the repository root.
# One at a time (flock): the two lanes of tests/run.sh may ask at once, and
# the second waits until the first has made it.
make_baseline() {
	local log=build/test-logs/make-baseline.log lock
	mkdir -p build/test-logs
	exec {lock}>build/test-logs/make-baseline.lock
	flock "$lock"
	if [ ! -d build/baseline/.git ] && [ -f "$LSMCONV_DISTRO_TREE/security/security.c" ] &&
		command -v spatch >/dev/null; then
		cocci/rewind/rewind.sh --tree "$LSMCONV_DISTRO_TREE" --out build/baseline \
			--series build/test-baseline-series >"$log" 2>&1 ||
			tap_diag "make baseline failed: $(tail -n 2 "$log")"
	fi
	exec {lock}>&-
}

# tap_done: plan line and exit status.
tap_done() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}

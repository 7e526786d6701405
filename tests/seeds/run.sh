#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Seed reconstruction test (TAP 13, see docs/CONTRACTS.md).
#
# Rebuilds legacy code from the minus side of seeds 003 (security.c
# wrappers) and 004 (module ops initializers) with seedcheck.py, converts it
# with convert.sh against the target tree, and checks that the result has
# the plus side's call conversions and hook/function pairs, with the
# target's IRC where 6.1 legitimately differs from 2015 (see seedcheck.py).
#
# usage: tests/seeds/run.sh
# The seeds are ../shared/seeds next to the repository (no machine path;
# SEEDS=DIR names another folder); without them the suite skips, saying
# where it looked.  TREE=DIR the target tree (default: the distro tree).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"
TARGET=${TREE:-$LSMCONV_DISTRO_TREE}
TMP=""

cleanup() {
	if [[ -n "$TMP" && -d "$TMP" ]]; then
		rm -rf -- "$TMP"
	fi
}

find_seeds() {
	local d=${SEEDS:-$ROOT/../shared/seeds}
	[[ -d "$d" ]] && ls "$d"/003-*.patch "$d"/004-*.patch >/dev/null 2>&1 || return 1
	cd "$d" && pwd
}

main() {
	local seeds rc n=0
	echo "TAP version 13"
	if ! seeds=$(find_seeds); then
		echo "ok 1 - seed reconstruction # SKIP no seed folder with 003 and 004 at ${SEEDS:-$ROOT/../shared/seeds}"
		echo "1..1"
		return 0
	fi
	if ! command -v spatch >/dev/null; then
		echo "ok 1 - seed reconstruction # SKIP spatch is not installed"
		echo "1..1"
		return 0
	fi
	if [[ ! -f "$TARGET/include/linux/lsm_hook_defs.h" ]]; then
		echo "ok 1 - seed reconstruction # SKIP no target tree at $TARGET (make tree)"
		echo "1..1"
		return 0
	fi
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/lsmconv-seeds.XXXXXX")
	trap cleanup EXIT

	n=$((n + 1))
	if python3 "$HERE/seedcheck.py" extract "$seeds" "$TMP/frag" >"$TMP/extract.out" 2>&1; then
		echo "ok $n - legacy fragments rebuilt from $seeds ($(tr '\n' ';' <"$TMP/extract.out" | sed 's/;$//; s/;/; /g'))"
	else
		echo "not ok $n - legacy fragments rebuilt from $seeds"
		sed 's/^/# /' "$TMP/extract.out"
		echo "1..$n"
		return 1
	fi
	echo "# legacy calls in complete functions: $(grep -c 'security_ops->' "$TMP/frag/legacy/security.c") of $(grep -c '^-.*security_ops->' "$seeds"/003-*.patch) in seed 003"

	n=$((n + 1))
	mkdir -p "$TMP/out"
	rc=0
	"$ROOT/convert.sh" file "$TMP"/frag/legacy/*.c --target "$TARGET" --out "$TMP/out" \
		--report "$TMP/report.md" >"$TMP/convert.out" 2>&1 || rc=$?
	if [[ $rc -eq 0 || $rc -eq 1 ]]; then
		echo "ok $n - convert.sh ran on the fragments (exit $rc; $(sed -n 's/^- left for a human: //p' "$TMP/report.md") left for a human)"
	else
		echo "not ok $n - convert.sh ran on the fragments (exit $rc)"
		tail -n 20 "$TMP/convert.out" | sed 's/^/# /'
		echo "1..$n"
		return 1
	fi

	rc=0
	python3 "$HERE/seedcheck.py" compare "$TMP/frag" "$TMP/out" "$TARGET" \
		>"$TMP/compare.out" 2>&1 || rc=$?
	# renumber seedcheck's TAP lines after ours
	awk -v base="$n" '/^(not )?ok [0-9]+ - /{
		sub(/^ok [0-9]+/, "ok " base + (++k)); sub(/^not ok [0-9]+/, "not ok " base + k); print; next }
		{ print }' "$TMP/compare.out"
	n=$((n + $(grep -cE '^(not )?ok [0-9]+ - ' "$TMP/compare.out")))
	if [[ $rc -gt 1 ]]; then
		n=$((n + 1))
		echo "not ok $n - seedcheck.py compare failed (exit $rc)"
	fi
	echo "1..$n"
	[[ $rc -eq 0 ]]
}

main

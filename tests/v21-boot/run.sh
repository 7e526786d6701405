#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make v21's proof in make check: the 4.0 baseline and the 4.0 tree lsmconv
# stacked in its own version, built (the baseline and the final tree: make
# v21 itself builds every step) and booted under each major with the
# behaviour suite (verify/pipeline.sh --own --ends, steps 1, 2, 4); the
# decisions must be the same, every major active on both sides; a dropped
# LSM_HOOK_INIT (verify/mutations.tsv, drop-hook-init-4.0) must be caught.
#
# Needs ../shared next to the repository (the 4.0 tree, the seeds): every
# case skips without it.  Reads the tree and series tests/v21 made in
# build/v21-test (makes them when missing: scripts/v21.sh --steps 1,2).
#
# Prints TAP 13.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh

echo "TAP version 13"
tarball=$root/../shared/trees/linux-4.0-v21base.tar.xz
work=$root/build/v21-test
logs=$root/build/test-logs
mkdir -p "$logs"
cases=(
	"4.0: the baseline and the stacked tree build and boot under every major, decisions the same"
	"4.0: every major ran its own cases on both kernels"
	"4.0: a dropped LSM_HOOK_INIT in the stacked tree is caught by the equivalence step"
	"4.0: the mutation's differences are the hook's own cases"
)
if [ ! -f "$tarball" ]; then
	for c in "${cases[@]}"; do tap_skip "$c" "no $tarball (../shared next to the repository)"; done
	tap_done
	exit
fi
if [ ! -f "$work/series/0001-LSM-Split-security.h.patch" ] || [ ! -d "$work/base/.git" ]; then
	scripts/v21.sh --work "$work" --steps 1,2 --force >"$logs/v21-boot-series.log" 2>&1 ||
		tap_diag "scripts/v21.sh --steps 1,2 failed: $(tail -n 2 "$logs/v21-boot-series.log")"
fi

pipe() {	# pipe LOG ARGS...: make verify --own on build/v21-test; exit status
	local log=$1
	shift
	verify/pipeline.sh --own --ends --baseline "$work/base" --series "$work/series" \
		--work "$work/verify" --steps 1,2,4 --force "$@" >"$log" 2>&1
}

rc=0
pipe "$logs/v21-boot.log" || rc=$?
row=$(grep -E '^4 +equivalence' "$logs/v21-boot.log" | head -n 1)
if [ "$rc" -eq 0 ] && [[ $row == *" pass "* ]]; then
	tap_ok "${cases[0]} ($(grep -oE 'same: [0-9]+ case\(s\)' "$work/verify/report.md" | head -n 1))"
else
	tap_not_ok "${cases[0]} (exit $rc)"
	tap_tail "$logs/v21-boot.log"
fi
inactive=$(grep -oE '[a-z]+ inactive in [a-z]+' "$work/verify/report.md" 2>/dev/null || true)
ok=1
for m in $(grep '^# majors:' qemu-boot/variants.tsv | cut -d: -f2 | tr ',' ' '); do
	for side in reference converted; do
		grep -q "^case $m/$m\." "$work/verify/traces/$side.trace" 2>/dev/null || ok=0
	done
done
if [ "$ok" -eq 1 ] && [ -z "$inactive" ]; then tap_ok "${cases[1]}"; else
	tap_not_ok "${cases[1]}"
	tap_diag "${inactive:-the cases of a major are missing from a trace in $work/verify/traces}"
fi

rc=0
pipe "$logs/v21-boot-mutation.log" --mutation drop-hook-init-4.0 || rc=$?
mrow=$(grep -E '^4 +equivalence' "$logs/v21-boot-mutation.log" | head -n 1)
if [ "$rc" -ne 0 ] && [[ $mrow == *" fail "* ]]; then tap_ok "${cases[2]}"; else
	tap_not_ok "${cases[2]} (exit $rc)"
	tap_tail "$logs/v21-boot-mutation.log"
fi
want=$(awk -F'\t' '$1 == "drop-hook-init-4.0" { print $4 }' verify/mutations.tsv)
missing=''
for c in $want; do
	grep -q "differs: $c" "$work/verify/mutations/drop-hook-init-4.0/compare.txt" 2>/dev/null ||
		missing="$missing $c"
done
if [ -n "$want" ] && [ -z "$missing" ]; then tap_ok "${cases[3]} ($want)"; else
	tap_not_ok "${cases[3]} (not named:${missing:- no cases in verify/mutations.tsv})"
fi
tap_done

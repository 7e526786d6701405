#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What an LSM hook call costs: boot kernels in QEMU, run hookbench in each
# and print time per call as ratios (TCG makes absolute times meaningless).
#
# usage: hookcost.sh --work DIR [--boots K] --run LABEL BZIMAGE "KERNEL ARGS"...
#                    [--compare LABEL_A LABEL_B]...
#
# Every --run is booted K times (default 3); each boot runs hookbench
# (verify/hookcost/hookbench.c: 7 rounds per operation, the median kept).
# Printed, per run and operation: the median over the boots of ns per call,
# the spread of the boots (min..max, in % of the median), and the ratio to
# getpid, the no-hook control.  Each --compare prints, per operation, the
# ratio of A's hook-to-control ratio to B's: 1.00 = the same cost.
# Exits 2 on a usage error, 3 (EXIT_FAILED) when a boot gave no figures.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	echo "usage: ${0##*/} --work DIR [--boots K] --run LABEL BZIMAGE ARGS... [--compare A B]..." >&2
	exit 2
}

work='' boots=3
labels=() kernels=() args=() compares=()
while [ $# -gt 0 ]; do
	case $1 in
	--work) work=${2:?}; shift 2 ;;
	--boots) boots=${2:?}; shift 2 ;;
	--run)
		[ $# -ge 4 ] || usage
		labels+=("$2") kernels+=("$3") args+=("$4")
		shift 4
		;;
	--compare)
		[ $# -ge 3 ] || usage
		compares+=("$2 $3")
		shift 3
		;;
	-h | --help) show_help ;;
	*) usage ;;
	esac
done
{ [ -n "$work" ] && [ ${#labels[@]} -gt 0 ]; } || usage
[[ $boots =~ ^[1-9][0-9]*$ ]] || usage
for k in "${kernels[@]}"; do
	[ -f "$k" ] || { echo "${0##*/}: $k: no such kernel" >&2; exit 2; }
done

mkdir -p "$work"
bin=$work/hookbench
gcc -static -O2 -Wall -Wextra -Werror -o "$bin" "$LSMCONV_ROOT/verify/hookcost/hookbench.c"
"$LSMCONV_ROOT/qemu-boot/build-initramfs.sh" --out "$work/initramfs.cpio.gz" \
	--add "$bin:lsmtest/hookbench" >/dev/null

# guest_clock LOG: the clocksource the guest last switched to before its
# figures ("tsc", "tsc-early", "jiffies", ...).
guest_clock() {
	tr -d '\r' <"$1" | awk '/^# hookbench /{ exit }
		/clocksource: Switched to clocksource/{ c = $NF } END { print c }'
}

# One line per boot and operation: LABEL BOOT OP NS
: >"$work/figures"
total=$((${#labels[@]} * boots)) step=0 status=0
for i in "${!labels[@]}"; do
	for b in $(seq 1 "$boots"); do
		step=$((step + 1))
		progress "$step" "$total" "booting ${labels[$i]} (boot $b of $boots)"
		log=$work/${labels[$i]}.$b.log
		# Under TCG the TSC calibration can fail ("Marking TSC unstable"):
		# the guest then keeps a jiffies clock (1 ms steps) and its ns per
		# call read 0, 1000, 2000.  Such a boot is booted again (3 tries),
		# then reported and not counted.
		for try in 1 2 3; do
			"$LSMCONV_ROOT/qemu-boot/run.sh" --kernel "${kernels[$i]}" \
				--initrd "$work/initramfs.cpio.gz" --log "$log" \
				--append "${args[$i]} lsmtest=hookbench" >"$log.verdict" || true
			clk=$(guest_clock "$log")
			[[ $clk == tsc* ]] && break
			echo "${0##*/}: ${labels[$i]} boot $b, try $try: the guest's clock was ${clk:-unknown}, not the TSC" >&2
		done
		if ! grep -aq '^# hookbench getpid ' "$log.tap"; then
			echo "${0##*/}: ${labels[$i]}: no figures ($(cat "$log.verdict"))" >&2
			status=$EXIT_FAILED
			continue
		fi
		if [[ $clk != tsc* ]]; then
			echo "${0##*/}: ${labels[$i]} boot $b: not counted (no TSC clock in 3 tries)" >&2
			status=$EXIT_FAILED
			continue
		fi
		tr -d '\r' <"$log.tap" |
			sed -n "s/^# hookbench \\([a-z0-9]*\\) median_ns=\\([0-9]*\\) .*/${labels[$i]} $b \\1 \\2/p" \
				>>"$work/figures"
	done
done

python3 - "$work/figures" "${compares[@]}" <<'PY'
# ns per call depend on each boot's TSC calibration under TCG (seen: the
# same kernel at 350 and at 750 ns per getpid), so every ratio is taken
# within one boot, against that boot's getpid, then the median over boots.
import statistics, sys

ns, rel = {}, {}
boot = {}
for line in open(sys.argv[1]):
    label, b, op, v = line.split()
    boot.setdefault((label, b), {})[op] = float(v)
for (label, b), ops in boot.items():
    ctl = ops.get("getpid")
    for op, v in ops.items():
        ns.setdefault(label, {}).setdefault(op, []).append(v)
        if ctl:
            rel.setdefault(label, {}).setdefault(op, []).append(v / ctl)
med = {l: {op: statistics.median(v) for op, v in ops.items()} for l, ops in rel.items()}
print("%-22s %-10s %9s %9s %14s" % ("run", "op", "ns/call", "/getpid", "spread"))
for label, ops in ns.items():
    for op, v in ops.items():
        r = rel.get(label, {}).get(op, [])
        m = med.get(label, {}).get(op)
        spread = "%+.0f..%+.0f%%" % (100 * (min(r) - m) / m, 100 * (max(r) - m) / m) if m else "n/a"
        print("%-22s %-10s %9.0f %9s %14s" % (label, op, statistics.median(v),
                                            "%.2f" % m if m else "n/a", spread))
for pair in sys.argv[2:]:
    a, b = pair.split()
    if a not in med or b not in med:
        print("compare %s / %s: no figures" % (a, b))
        continue
    for op in med[a]:
        if op == "getpid" or op not in med[b]:
            continue
        print("compare %s / %s %-10s %.2f" % (a, b, op, med[a][op] / med[b][op]))
PY
exit "$status"

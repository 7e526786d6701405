#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Add up the kselftest "Totals:" lines of a guest TAP file (one per test
# binary) and judge them: exit 0 only when something passed and nothing
# failed or errored.  Prints "pass:N fail:N xfail:N skip:N error:N binaries:N".
# For one suite of a guest that ran several, give it the suite's part
# (boot-variants.sh cuts it out of the guest's TAP).
#
# usage: selftest-totals.sh TAPFILE
set -euo pipefail
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
[ $# -eq 1 ] || { echo "usage: ${0##*/} TAPFILE" >&2; exit 2; }
[ -f "$1" ] || { echo "${0##*/}: $1: no such file" >&2; exit 2; }
totals=$({ grep -a -o 'Totals: pass:[0-9]* fail:[0-9]* xfail:[0-9]* xpass:[0-9]* skip:[0-9]* error:[0-9]*' "$1" || true; } |
	awk -F'[: ]' '{ p += $4; f += $6 + $10; x += $8; s += $12; e += $14; n++ }
		END { printf "pass:%d fail:%d xfail:%d skip:%d error:%d binaries:%d\n", p, f, x, s, e, n }')
echo "$totals"
echo "$totals" | grep -q '^pass:[1-9][0-9]* fail:0 .* error:0 '

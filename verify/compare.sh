#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Compare the decisions of two lsmverify traces.
#
# usage: verify/compare.sh [--lsm NAME] A B
#
# A and B are console logs, TAP files (lines "# case ..."), expectation
# files (verify/expect/*.txt) or traces.sh output: every line
# "case [<major>/]<lsm>.<name> <allow|deny> <errno>" counts, with or without
# TAP's "# " in front.  --lsm keeps only that suite's cases.  Names each case that differs or is missing on one side;
# exits 0 if the traces agree, 1 if they differ, 2 on usage errors (also
# when neither side has any case: an empty comparison proves nothing).
set -euo pipefail

usage() {
	echo "usage: ${0##*/} [--lsm NAME] A B" >&2
	exit 2
}

case ${1:-} in
-h | --help)
	sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"	# --help: the header, on stdout
	exit 0
	;;
esac
lsm=''
if [ "${1:-}" = --lsm ]; then
	if [ -z "${2:-}" ] || [ "${2#-}" != "$2" ]; then usage; fi
	lsm=$2
	shift 2
fi
[ $# -eq 2 ] || usage
for f in "$1" "$2"; do
	[ -r "$f" ] || { echo "${0##*/}: $f: cannot read" >&2; exit 2; }
done

extract() {
	tr -d '\r' <"$1" |
		sed -n 's/^\(# \)*case \([^ ]*\) \(allow\|deny\) \([^ ]*\)$/\2 \3 \4/p' |
		awk -v lsm="$lsm" 'lsm == "" || index($1, lsm ".") == 1 || index($1, "/" lsm ".") > 0' |
		LC_ALL=C sort
}

a=$(extract "$1")
b=$(extract "$2")
if [ -z "$a" ] && [ -z "$b" ]; then
	echo "${0##*/}: no case lines in either file" >&2
	exit 2
fi

awk -v A="$1" -v B="$2" '
	FNR == 1 { side++ }
	NF == 0 { next }
	side == 1 { if ($1 in va) dupa[$1] = 1; va[$1] = $2 " " $3; next }
	side == 2 { if ($1 in vb) dupb[$1] = 1; vb[$1] = $2 " " $3 }
	END {
		bad = 0
		for (n in va) {
			if (n in dupa) { print "1 duplicate in " A ": " n; bad++ }
			if (!(n in vb)) { print "1 missing in " B ": " n " (" A ": " va[n] ")"; bad++ }
			else if (va[n] != vb[n]) { print "1 differs: " n ": " va[n] " vs " vb[n]; bad++ }
			else same++
		}
		for (n in vb) {
			if (n in dupb) { print "1 duplicate in " B ": " n; bad++ }
			if (!(n in va)) { print "1 missing in " A ": " n " (" B ": " vb[n] ")"; bad++ }
		}
		if (bad) { print "2 " bad " difference(s), " same + 0 " case(s) agree"; exit 1 }
		print "2 same: " same " case(s)"
	}' <(printf '%s\n' "$a") <(printf '%s\n' "$b") | LC_ALL=C sort | cut -d' ' -f2-

# SPDX-License-Identifier: GPL-2.0
# One suite's expectations for one kernel version.
#
#   awk -f merge-expect.awk OVERRIDES BASE
#
# BASE is verify/expect/SUITE.txt (6.1's decisions); OVERRIDES is
# verify/expect/V/SUITE.txt (or /dev/null): lines "case SUITE.NAME VERDICT"
# for the cases version V decides otherwise, each with its reason in the
# comment lines above it.  Every case of BASE is printed with OVERRIDES'
# line when it has one; an override of a case BASE lacks is an error (a
# typo would otherwise expect nothing).
FILENAME == ARGV[1] {
	if ($1 == "case") {
		over[$2] = $0
		order[++n] = $2
	}
	next
}

$1 == "case" && ($2 in over) {
	print over[$2]
	used[$2] = 1
	next
}

{ print }

END {
	for (i = 1; i <= n; i++) {
		if (!(order[i] in used)) {
			printf "%s: %s is not a case of %s\n", ARGV[1], order[i], ARGV[2] > "/dev/stderr"
			exit 1
		}
	}
}

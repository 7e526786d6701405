#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The binary policy version to write for a kernel tree: the highest one both
# the tree's SELinux (POLICYDB_VERSION_MAX of its
# security/selinux/include/security.h, without the
# CONFIG_SECURITY_SELINUX_POLICYDB_VERSION_MAX override, which is off in every
# configuration lsmconv builds) and checkpolicy (`checkpolicy -V`) know.
#
# usage: verify/selinux/policyvers.sh TREE [CHECKPOLICY]
#
# Prints one number (Linux 4.0: 29, 6.1: 33); exits 2 naming what it could
# not read.
set -euo pipefail

case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: ${0##*/} TREE [CHECKPOLICY]" >&2
	exit 2
fi
h=$1/security/selinux/include/security.h
cp=${2:-checkpolicy}
[ -r "$h" ] || { echo "${0##*/}: $h: cannot read" >&2; exit 2; }

# POLICYDB_VERSION_MAX is a number or the name of another POLICYDB_VERSION_*
# define; the CONFIG_ value of the override is neither.
kernel=$(awk '
	$1 == "#define" && $2 ~ /^POLICYDB_VERSION_/ { def[$2] = $3 }
	$1 == "#define" && $2 == "POLICYDB_VERSION_MAX" && $3 !~ /^CONFIG_/ { max = $3 }
	END {
		for (i = 0; i < 8 && max !~ /^[0-9]+$/ && (max in def); i++)
			max = def[max]
		if (max ~ /^[0-9]+$/)
			print max
	}' "$h")
[ -n "$kernel" ] || { echo "${0##*/}: $h: no POLICYDB_VERSION_MAX" >&2; exit 2; }

tool=$("$cp" -V 2>/dev/null | awk 'NR == 1 && $1 ~ /^[0-9]+$/ { print $1 }') || true
[ -n "$tool" ] || { echo "${0##*/}: $cp -V: no policy version" >&2; exit 2; }

echo $((kernel < tool ? kernel : tool))

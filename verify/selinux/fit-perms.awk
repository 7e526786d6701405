# SPDX-License-Identifier: GPL-2.0
# Fit the hand-written TE rules to a kernel tree's classes and permissions.
#
#   awk -f fit-perms.awk VECTORS POLICY.CONF
#
# VECTORS is `gen-classmap vectors` of the tree ("class NAME { perm ... }"
# lines).  Every allow rule of one class ("...:CLASS PERM;" or
# "...:CLASS { PERM ... };") keeps only the permissions that the tree's
# classmap.h defines for CLASS; a permission the tree lacks (Linux 4.0 has
# no file map, 4.13) is not checked by that kernel, so dropping it from an
# allow rule changes no decision there.  A rule left with none, or naming a
# class the tree lacks, is dropped.  Each change is left in the output as a
# "# fit-perms: ..." comment.  Rules over a set of classes
# ("...:{ a b } *;") are printed as they are.

FNR == NR {
	if ($1 == "class" && $3 == "{") {
		known[$2] = 1
		for (i = 4; i < NF; i++)
			perm[$2, $i] = 1
	}
	next
}

/^[ \t]*allow / && match($0, /:[a-z_0-9]+ +(\{[^}]*\}|[a-z_0-9*~]+) *;/) {
	head = substr($0, 1, RSTART)
	body = substr($0, RSTART + 1, RLENGTH - 1)
	tail = substr($0, RSTART + RLENGTH)
	sub(/ *;$/, "", body)
	cls = body
	sub(/ .*/, "", cls)
	perms = body
	sub(/^[a-z_0-9]+ +/, "", perms)
	gsub(/[{}]/, " ", perms)
	if (perms ~ /[*~]/) {
		print
		next
	}
	if (!(cls in known)) {
		print "# fit-perms: dropped, no class " cls " in this tree: " $0
		next
	}
	n = split(perms, p, " ")
	kept = ""
	dropped = ""
	k = 0
	for (i = 1; i <= n; i++) {
		if ((cls, p[i]) in perm) {
			kept = kept " " p[i]
			k++
		} else {
			dropped = dropped " " p[i]
		}
	}
	if (dropped == "") {
		print
		next
	}
	print "# fit-perms: class " cls " has no" dropped " in this tree"
	if (k == 0) {
		print "# fit-perms: dropped, nothing left: " $0
		next
	}
	print head cls (k == 1 ? kept : " {" kept " }") ";" tail
	next
}

{ print }

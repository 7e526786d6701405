/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmtest.h - what a guest test of a security module needs (make port,
 * verify/port.sh compiles each C file of MODULE/tests with -I to this
 * directory).
 *
 * A test prints one line per decision, in the trace format verify/compare.sh
 * compares ("case LSM.NAME allow|deny ERRNO"), and exits 0 when every case
 * was as expected, 77 (skip, with the reason as its last line) when the
 * module is not active, 1 otherwise:
 *
 *	if (!lsmtest_active("mylsm"))
 *		return 77;
 *	bad += lsmtest_case("mylsm", "open_secret", errno_or_0, EACCES);
 *	return bad ? 1 : 0;
 */
#ifndef LSMTEST_H
#define LSMTEST_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The errno names a trace may carry; anything else is "other". */
static inline const char *lsmtest_errname(int e)
{
	switch (e) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EDQUOT: return "EDQUOT";
	case EINVAL: return "EINVAL";
	case EEXIST: return "EEXIST";
	case EROFS: return "EROFS";
	default: return "other";
	}
}

/*
 * The major this boot chose on a kernel without an LSM list (before 4.15:
 * no /sys/kernel/security/lsm): lsmtest_major=X on the command line (make
 * port's boot of a legacy module whose own name is not the one its tests
 * use), else security=X.  Empty when neither is given.
 */
static inline void lsmtest_chosen(char *out, size_t n)
{
	char line[1024] = "", *p, *save = NULL, sec[256] = "";
	FILE *f = fopen("/proc/cmdline", "r");

	out[0] = 0;
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = 0;
		fclose(f);
	}
	for (p = strtok_r(line, " \n", &save); p; p = strtok_r(NULL, " \n", &save)) {
		if (!strncmp(p, "lsmtest_major=", 14))
			snprintf(out, n, "%s", p + 14);
		else if (!strncmp(p, "security=", 9))
			snprintf(sec, sizeof(sec), "%s", p + 9);
	}
	if (!out[0])
		snprintf(out, n, "%s", sec);
}

/*
 * 1 when LSM is in /sys/kernel/security/lsm; else says why, 0.  A kernel
 * without that file (before 4.15) lists nothing: there LSM is active when
 * the boot chose it as the major (lsmtest_chosen()), which the decisions
 * themselves must then show (make port compares them with the port's).
 */
static inline int lsmtest_active(const char *lsm)
{
	char list[512] = "", shown[512], chosen[256];
	FILE *f = fopen("/sys/kernel/security/lsm", "r");
	char *p, *save = NULL;

	if (!f && errno == ENOENT) {
		lsmtest_chosen(chosen, sizeof(chosen));
		if (!strcmp(chosen, lsm)) {
			printf("%s: no /sys/kernel/security/lsm (a kernel before 4.15): "
			       "taken as active, the major this boot chose\n", lsm);
			return 1;
		}
		printf("%s is not active (no /sys/kernel/security/lsm; the boot chose '%s')\n",
		       lsm, chosen);
		return 0;
	}
	if (f) {
		if (!fgets(list, sizeof(list), f))
			list[0] = 0;
		fclose(f);
	}
	memcpy(shown, list, sizeof(shown));
	shown[strcspn(shown, "\n")] = 0;
	for (p = strtok_r(list, ",\n", &save); p; p = strtok_r(NULL, ",\n", &save))
		if (!strcmp(p, lsm))
			return 1;
	printf("%s is not active (lsm: %s)\n", lsm, shown);
	return 0;
}

/*
 * Print the decision of case NAME (ERR: the errno, 0 = allowed) and
 * whether it was WANT; returns 0 as expected, 1 not.
 */
static inline int lsmtest_case(const char *lsm, const char *name, int err, int want)
{
	printf("case %s.%s %s %s\n", lsm, name, err ? "deny" : "allow", lsmtest_errname(err));
	if (err != want)
		printf("expected %s (got %d)\n", lsmtest_errname(want), err);
	fflush(stdout);
	return err != want;
}

#endif /* LSMTEST_H */

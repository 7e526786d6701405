// SPDX-License-Identifier: GPL-2.0
/*
 * lsmverify - entry point.
 *
 *   lsmverify SUITE          run one suite (capability, yama, selinux, smack,
 *                            tomoyo, apparmor) and check it against
 *                            /lsmverify/expect/SUITE.txt; exit 0 pass,
 *                            1 fail, 77 skip (reason on the last line)
 *   lsmverify op --in-guest-child OP ARG
 *                            run one operation, exit with its errno
 *   lsmverify tomoyo-loader  TOMOYO's policy loader (TOMOYO_loader=)
 *   lsmverify list           print the suite names
 *
 * When started under another name (a copy at /lsmtest/SUITE), the name of
 * the program selects the suite.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lsmverify.h"

struct suite {
	const char *name;
	int (*run)(void);
};

static const struct suite suites[] = {
	{ "capability", lv_suite_capability },
	{ "yama", lv_suite_yama },
	{ "selinux", lv_suite_selinux },
	{ "smack", lv_suite_smack },
	{ "tomoyo", lv_suite_tomoyo },
	{ "apparmor", lv_suite_apparmor },
	{ NULL, NULL }
};

static int run_suite(const struct suite *s)
{
	int rc;

	lv_lsm = s->name;
	setvbuf(stdout, NULL, _IONBF, 0);
	if (!lv_guest_guard())
		return lv_skip("%s: refusing to run outside the lsmtest QEMU guest (PID 1 must be /init and lsmtest= must be on the kernel command line)",
			       s->name);
	if (strcmp(s->name, "capability") && !lv_lsm_active(s->name)) {
		/* Before 4.15 there is no list: the LSM's interface decides. */
		if (access("/sys/kernel/security/lsm", F_OK))
			return lv_skip("%s is not an active LSM (no /sys/kernel/security/lsm and no interface of %s; boot with security=...)",
				       s->name, s->name);
		return lv_skip("%s is not an active LSM (see /sys/kernel/security/lsm; boot with lsm=...)",
			       s->name);
	}
	rc = s->run();
	if (rc == LV_SKIP)
		return rc;
	return lv_finish();
}

static int tomoyo_loader(void)
{
	lv_lsm = "tomoyo";
	if (!lv_guest_guard()) {
		fprintf(stderr, "tomoyo-loader: refusing to run outside the lsmtest QEMU guest\n");
		return 1;
	}
	return lv_tomoyo_loader();
}

static int usage(void)
{
	fprintf(stderr,
		"usage: lsmverify {capability|yama|selinux|smack|tomoyo|apparmor|list}\n"
		"       lsmverify op --in-guest-child OP ARG\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/');
	const struct suite *s;

	name = name ? name + 1 : argv[0];
	for (s = suites; s->name; s++)
		if (!strcmp(name, s->name))
			return run_suite(s);
	/* The kernel starts the loader by path, without arguments. */
	if (!strcmp(name, "tomoyo-loader"))
		return tomoyo_loader();

	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "op")) {
		int rc;

		if (argc < 4 || strcmp(argv[2], "--in-guest-child"))
			return usage();
		rc = lv_run_op(argv[3], argc > 4 ? argv[4] : "");
		return rc < 0 && -rc < 150 ? -rc : (rc ? LV_CHILD_SETUP : 0);
	}
	if (!strcmp(argv[1], "list")) {
		for (s = suites; s->name; s++)
			printf("%s\n", s->name);
		return 0;
	}
	if (!strcmp(argv[1], "tomoyo-loader"))
		return tomoyo_loader();
	for (s = suites; s->name; s++)
		if (!strcmp(argv[1], s->name))
			return run_suite(s);
	return usage();
}

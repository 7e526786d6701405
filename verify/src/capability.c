// SPDX-License-Identifier: GPL-2.0
/*
 * lsmverify - capability (commoncap): root may, an ordinary user and a root
 * process without capabilities may not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/capability.h>

#include "lsmverify.h"

#define DIR	LV_RUN "/capability"
#define USER	1000

static int prep_user(const void *ctx)
{
	return lv_become_user(USER);
}

/* uid 0, but only CAP_CHOWN left. */
static int prep_root_nocap(const void *ctx)
{
	static const int keep[] = { CAP_CHOWN };

	return lv_drop_caps(keep, 1);
}

struct cap_case {
	const char *name;
	const char *op;
	const char *arg;
};

/* The same operations for each kind of process. */
static const struct cap_case ops[] = {
	{ "sethostname", "sethostname", "" },		/* CAP_SYS_ADMIN */
	{ "mount", "mount", DIR "/mnt" },		/* CAP_SYS_ADMIN */
	{ "chown", "chown", DIR "/userdir/owned" },	/* CAP_CHOWN */
	{ "nice", "nice", "-5" },			/* CAP_SYS_NICE */
	{ "rawsock", "rawsock", "" },			/* CAP_NET_RAW */
	{ "mknod", "mknod", DIR "/userdir/node" },	/* CAP_MKNOD */
	{ "setuid", "setuid", "4321" },			/* CAP_SETUID */
	{ "setgid", "setgid", "4321" },			/* CAP_SETGID */
	{ "chroot", "chroot", DIR "/mnt" },		/* CAP_SYS_CHROOT */
	{ "settime", "settime", "" },			/* CAP_SYS_TIME */
	{ "bind80", "bind", "80" },			/* CAP_NET_BIND_SERVICE */
	{ "chmod_other", "chmod", DIR "/secret" },	/* CAP_FOWNER */
	{ "kill_init", "signull", "1" },		/* CAP_KILL */
	{ "read_0600", "read", DIR "/secret" },		/* CAP_DAC_OVERRIDE */
	/* CAP_SYS_ADMIN, by cap_inode_setxattr() on the owner's own file */
	{ "secxattr", "secxattr", DIR "/userdir/owned" },
	{ NULL, NULL, NULL }
};

static int run_as(const char *who, lv_prep_fn prep)
{
	const struct cap_case *c;
	char name[96];
	int err;

	/* A fresh file for chown: the previous run may have changed it. */
	err = lv_make_file(DIR "/userdir/owned", "x\n", 0644);
	if (!err && chown(DIR "/userdir/owned", USER, USER))
		err = -errno;
	if (err)
		return lv_setup_fail(DIR "/userdir/owned", err);
	for (c = ops; c->name; c++) {
		snprintf(name, sizeof(name), "%s_%s", who, c->name);
		lv_case(name, lv_child(prep, NULL, c->op, c->arg));
	}
	return 0;
}

int lv_suite_capability(void)
{
	int err;

	err = lv_mount_tmpfs(DIR);
	if (!err)
		err = lv_mkdir_p(DIR "/mnt", 0755);
	/* userdir: writable by all, so that mknod reaches CAP_MKNOD. */
	if (!err)
		err = lv_mkdir_p(DIR "/userdir", 0777);
	if (!err && chmod(DIR "/userdir", 0777))
		err = -errno;
	/* secret: someone else's 0600 file, readable only with DAC_OVERRIDE. */
	if (!err)
		err = lv_make_file(DIR "/secret", "secret\n", 0600);
	if (!err && chown(DIR "/secret", 2000, 2000))
		err = -errno;
	if (err)
		return lv_setup_fail("scratch tmpfs " DIR, err);

	if (!err)
		err = run_as("root", NULL);
	if (!err)
		err = run_as("user", prep_user);
	if (!err)
		err = run_as("rootnocap", prep_root_nocap);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * lsmverify - SELinux: the policy compiled on the host from verify/selinux/
 * (checkpolicy -M) is written to /sys/fs/selinux/load, files on a tmpfs get
 * types through security.selinux, enforcing is switched on, and children
 * enter the test domains through /proc/self/attr/exec and an exec of a
 * copy of lsmverify labelled lsmv_exec_t.  Enforcing is switched off again
 * at the end so that later suites in the same boot are not affected.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/xattr.h>

#include "lsmverify.h"

#define SELINUXFS	"/sys/fs/selinux"
#define POLICY		LV_DATA "/selinux/policy.bin"
#define DIR		LV_RUN "/selinux"
#define EXE		DIR "/exe"

#define CTX_A		"u:r:lsmv_a_t:s0"
#define CTX_B		"u:r:lsmv_b_t:s0"

static int prep_exec(const void *ctx)
{
	return lv_set_attr("exec", ctx);
}

static int in_a(const char *op, const char *arg)
{
	return lv_child_exec(prep_exec, CTX_A, EXE, op, arg);
}

static int in_b(const char *op, const char *arg)
{
	return lv_child_exec(prep_exec, CTX_B, EXE, op, arg);
}

static int set_type(const char *path, const char *type)
{
	char ctx[128];

	snprintf(ctx, sizeof(ctx), "u:object_r:%s:s0", type);
	if (setxattr(path, "security.selinux", ctx, strlen(ctx) + 1, 0))
		return -errno;
	return 0;
}

static int load_policy(void)
{
	size_t len;
	char *policy = lv_slurp(POLICY, &len);
	int err;

	if (!policy)
		return -ENOENT;
	err = lv_write_file(SELINUXFS "/load", policy, len);
	free(policy);
	return err;
}

static int make_files(void)
{
	int err = lv_mount_tmpfs(DIR);

	if (!err)
		err = lv_make_file(DIR "/a", "a\n", 0666);
	if (!err)
		err = lv_make_file(DIR "/b", "b\n", 0666);
	if (!err)
		err = lv_copy_self(EXE);
	if (!err)
		err = set_type(DIR "/a", "lsmv_file_a_t");
	if (!err)
		err = set_type(DIR "/b", "lsmv_file_b_t");
	if (!err)
		err = set_type(EXE, "lsmv_exec_t");
	/* The same program, but with a type that is no entrypoint. */
	if (!err)
		err = lv_copy_self(DIR "/a_exe");
	if (!err)
		err = set_type(DIR "/a_exe", "lsmv_file_a_t");
	return err;
}

int lv_suite_selinux(void)
{
	int err;

	err = lv_ensure_mount(SELINUXFS, "selinuxfs");
	if (err)
		return lv_setup_fail("mount selinuxfs", err);
	err = load_policy();
	lv_case("load_policy", err);
	if (err)
		return lv_setup_fail("load " POLICY, err);
	err = make_files();
	if (err)
		return lv_setup_fail("labelled files in " DIR, err);
	err = lv_write_str(SELINUXFS "/enforce", "1");
	lv_case("enforce", err);
	if (err)
		return lv_setup_fail("enforce", err);

	/* entering a domain needs an entrypoint type */
	lv_case("kernel_enter_a", lv_child(prep_exec, CTX_A, "exec", EXE));
	lv_case("kernel_enter_a_via_file_a",
		lv_child(prep_exec, CTX_A, "exec", DIR "/a_exe"));
	/* file class */
	lv_case("a_read_a", in_a("read", DIR "/a"));
	lv_case("a_write_a", in_a("write", DIR "/a"));
	lv_case("a_read_b", in_a("read", DIR "/b"));
	lv_case("b_read_b", in_b("read", DIR "/b"));
	lv_case("b_read_a", in_b("read", DIR "/a"));
	lv_case("b_exec", in_b("exec", EXE));
	/* dir and file creation, type_transition, unlink */
	lv_case("a_create_e", in_a("create", DIR "/e"));
	lv_case("b_create_d", in_b("create", DIR "/d"));
	lv_case("b_read_d", in_b("read", DIR "/d"));	/* labelled lsmv_file_b_t */
	lv_case("a_read_d", in_a("read", DIR "/d"));
	lv_case("a_unlink_d", in_a("unlink", DIR "/d"));
	lv_case("b_unlink_d", in_b("unlink", DIR "/d"));
	/* socket classes */
	lv_case("a_tcpsock", in_a("tcpsock", ""));
	lv_case("a_unixsock", in_a("unixsock", ""));
	lv_case("b_unixsock", in_b("unixsock", ""));
	/* capability class */
	lv_case("a_nice", in_a("nice", "-5"));
	lv_case("b_nice", in_b("nice", "-5"));
	lv_case("a_chown_a", in_a("chown", DIR "/a"));
	lv_case("a_setuid", in_a("setuid", "4321"));
	/* process class */
	lv_case("a_signal_self", in_a("sigurg", "self"));
	lv_case("a_signal_parent", in_a("sigurg", "ppid"));
	lv_case("a_setexec", in_a("setexec", CTX_B));
	/* kernel_t, where every pre-existing process is, is unconfined */
	lv_case("kernel_read_b", lv_child(NULL, NULL, "read", DIR "/b"));

	lv_case("permissive", lv_write_str(SELINUXFS "/enforce", "0"));
	return 0;
}

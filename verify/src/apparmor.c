// SPDX-License-Identifier: GPL-2.0
/*
 * lsmverify - AppArmor: profiles compiled on the host (apparmor_parser -Q
 * against features-6.1) are written to /sys/kernel/security/apparmor/.load;
 * children switch to a profile on exec ("exec lsmv_a" into
 * /proc/self/attr/exec) and run a copy of lsmverify.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lsmverify.h"

#define SECFS		"/sys/kernel/security"
#define AAFS		SECFS "/apparmor"
#define PROFILES	LV_DATA "/apparmor/profiles.bin"
#define DIR		LV_RUN "/apparmor"
#define EXE		DIR "/exe"

static int prep_onexec(const void *ctx)
{
	return lv_set_attr("exec", ctx);
}

static int in_a(const char *op, const char *arg)
{
	return lv_child_exec(prep_onexec, "exec lsmv_a", EXE, op, arg);
}

static int in_b(const char *op, const char *arg)
{
	return lv_child_exec(prep_onexec, "exec lsmv_b", EXE, op, arg);
}

static int load_profiles(void)
{
	size_t len;
	char *bin = lv_slurp(PROFILES, &len);
	int err;

	if (!bin)
		return -ENOENT;
	err = lv_write_file(AAFS "/.load", bin, len);
	free(bin);
	return err;
}

static bool profile_loaded(const char *name)
{
	char buf[4096];

	if (lv_read_file(AAFS "/profiles", buf, sizeof(buf)) < 0)
		return false;
	return strstr(buf, name) != NULL;
}

int lv_suite_apparmor(void)
{
	int err;

	err = lv_ensure_mount(SECFS, "securityfs");
	if (err)
		return lv_setup_fail("mount securityfs", err);
	err = lv_abc_files(DIR, EXE);
	if (err)
		return lv_setup_fail("files in " DIR, err);

	err = load_profiles();
	if (!err && !(profile_loaded("lsmv_a (enforce)") &&
		      profile_loaded("lsmv_b (enforce)")))
		err = -ENOENT;
	lv_case("load_profiles", err);
	if (err)
		return lv_setup_fail("load " PROFILES, err);

	/* file rules */
	lv_case("a_read_a", in_a("read", DIR "/a"));
	lv_case("a_write_a", in_a("write", DIR "/a"));
	lv_case("a_read_b", in_a("read", DIR "/b"));
	lv_case("a_write_c", in_a("write", DIR "/c"));
	lv_case("a_create_d", in_a("create", DIR "/d"));
	lv_case("b_read_b", in_b("read", DIR "/b"));
	lv_case("b_read_a", in_b("read", DIR "/a"));
	lv_case("b_exec", in_b("exec", EXE));
	/* capability rules */
	lv_case("a_nice", in_a("nice", "-5"));
	lv_case("b_nice", in_b("nice", "-5"));
	lv_case("a_chown_c", in_a("chown", DIR "/c"));
	lv_case("a_setuid", in_a("setuid", "4321"));
	/* network rules: only lsmv_b has one (unix stream) */
	lv_case("a_tcpsock", in_a("tcpsock", ""));
	lv_case("a_unixsock", in_a("unixsock", ""));
	lv_case("b_unixsock", in_b("unixsock", ""));
	/* signals: no signal rules, so none may be sent to another label */
	lv_case("a_signal_parent", in_a("sigurg", "ppid"));
	/* the suite itself is unconfined */
	lv_case("unconfined_read_b", lv_child(NULL, NULL, "read", DIR "/b"));
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * lsmverify - TOMOYO.  TOMOYO enforces nothing until its policy loader has
 * run, which the kernel does when the activation trigger is executed.  The
 * guest is booted with
 *	TOMOYO_trigger=/lsmverify/lsmverify TOMOYO_loader=/lsmverify/tomoyo-loader
 * The suite executes the trigger; the kernel runs the loader ("lsmverify
 * tomoyo-loader"), which writes the profiles and the managers; then the
 * suite, a manager, writes the domain policy from
 * /lsmverify/tomoyo/domain_policy.txt.  Children enter the test domains by
 * writing to self_domain ("task manual_domain_transition") and act.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lsmverify.h"

#define SECFS	"/sys/kernel/security"
#define TOMOYO	SECFS "/tomoyo"
#define DIR	LV_RUN "/tomoyo"
#define TRIGGER	LV_DATA "/lsmverify"
#define DOM_A	"<kernel> /lsmverify/domain-a"
#define DOM_B	"<kernel> /lsmverify/domain-b"

static bool cmdline_has(const char *param)
{
	char buf[4096];

	if (lv_read_file("/proc/cmdline", buf, sizeof(buf)) < 0)
		return false;
	return strstr(buf, param) != NULL;
}

static bool policy_loaded(void)
{
	char buf[8192];

	if (lv_read_file(TOMOYO "/profile", buf, sizeof(buf)) < 0)
		return false;
	/*
	 * The kernel knows PROFILE_VERSION from the start; profile 0 is
	 * defined only by the loader.
	 */
	return strstr(buf, "\n0-CONFIG=") != NULL;
}

static int write_policy(const char *file, const char *text)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", TOMOYO, file);
	return lv_write_str(path, text);
}

/*
 * Run by the kernel (call_usermodehelper) before the trigger executes.
 * Every existing domain uses profile 0, which must be defined, or TOMOYO
 * panics ("Profile 0 ... is not defined").
 */
int lv_tomoyo_loader(void)
{
	char *profile = lv_slurp(LV_DATA "/tomoyo/profile.txt", NULL);
	char exe[256], buf[512];
	int err;

	err = lv_ensure_mount(SECFS, "securityfs");
	if (err)
		return 1;
	if (!profile)
		profile = strdup("PROFILE_VERSION=20150505\n"
				 "0-CONFIG={ mode=disabled }\n");
	err = write_policy("profile", profile);
	free(profile);
	if (lv_self_exe(exe, sizeof(exe)))
		strcpy(exe, "/lsmverify/lsmverify");
	snprintf(buf, sizeof(buf), "%s\n/lsmverify/lsmverify\n/lsmtest/tomoyo\n",
		 exe);
	if (!err)
		err = write_policy("manager", buf);
	return err ? 1 : 0;
}

static int prep_domain(const void *ctx)
{
	return lv_write_str(TOMOYO "/self_domain", ctx);
}

static int activate(void)
{
	int rc;

	if (policy_loaded())
		return 0;
	/* Any exec of the trigger path runs the loader first. */
	rc = lv_child_exec(NULL, NULL, TRIGGER, "true", "");
	if (rc)
		return rc;
	return policy_loaded() ? 0 : -ENOENT;
}

static int load_domains(void)
{
	char *policy = lv_slurp(LV_DATA "/tomoyo/domain_policy.txt", NULL);
	char self[512], buf[1024];
	int err, n;

	if (!policy)
		return -ENOENT;
	n = lv_read_file(TOMOYO "/self_domain", self, sizeof(self));
	if (n <= 0) {
		free(policy);
		return n ? n : -EINVAL;
	}
	self[strcspn(self, "\n")] = '\0';
	err = write_policy("domain_policy", policy);
	free(policy);
	/* Our own domain may hand children over to the test domains. */
	snprintf(buf, sizeof(buf),
		 "%s\ntask manual_domain_transition " DOM_A
		 "\ntask manual_domain_transition " DOM_B "\n", self);
	if (!err)
		err = write_policy("domain_policy", buf);
	return err;
}

int lv_suite_tomoyo(void)
{
	int err;

	if (!policy_loaded() && (!cmdline_has("TOMOYO_trigger=" TRIGGER) ||
				 !cmdline_has("TOMOYO_loader=")))
		return lv_skip("tomoyo: policy not active; boot with TOMOYO_trigger=%s TOMOYO_loader=%s/tomoyo-loader",
			       TRIGGER, LV_DATA);
	err = lv_abc_files(DIR, DIR "/exe");
	if (err)
		return lv_setup_fail("files in " DIR, err);

	err = lv_ensure_mount(SECFS, "securityfs");
	if (!err)
		err = activate();
	lv_case("activate", err);
	if (err)
		return lv_setup_fail("policy loader", err);
	err = load_domains();
	lv_case("load_domains", err);
	if (err)
		return lv_setup_fail("domain_policy", err);

	/* domain-a: read a, write c, execute exe, create and unlink e. */
	lv_case("a_read_a", lv_child(prep_domain, DOM_A, "read", DIR "/a"));
	lv_case("a_write_a", lv_child(prep_domain, DOM_A, "write", DIR "/a"));
	lv_case("a_read_b", lv_child(prep_domain, DOM_A, "read", DIR "/b"));
	lv_case("a_write_c", lv_child(prep_domain, DOM_A, "write", DIR "/c"));
	lv_case("a_create_d", lv_child(prep_domain, DOM_A, "create", DIR "/d"));
	lv_case("a_exec", lv_child(prep_domain, DOM_A, "exec", DIR "/exe"));
	lv_case("a_create_e", lv_child(prep_domain, DOM_A, "create", DIR "/e"));
	lv_case("a_unlink_e", lv_child(prep_domain, DOM_A, "unlink", DIR "/e"));
	lv_case("a_unlink_c", lv_child(prep_domain, DOM_A, "unlink", DIR "/c"));
	/* domain-b: read b only; no way back to domain-a. */
	lv_case("b_read_b", lv_child(prep_domain, DOM_B, "read", DIR "/b"));
	lv_case("b_read_a", lv_child(prep_domain, DOM_B, "read", DIR "/a"));
	lv_case("b_exec", lv_child(prep_domain, DOM_B, "exec", DIR "/exe"));
	lv_case("b_enter_a",
		lv_child(prep_domain, DOM_B, "tomoyo_domain", DOM_A));
	/* The suite's own domain uses profile 0 (disabled). */
	lv_case("self_read_b", lv_child(NULL, NULL, "read", DIR "/b"));
	return 0;
}

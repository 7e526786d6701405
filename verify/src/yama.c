// SPDX-License-Identifier: GPL-2.0
/*
 * lsmverify - Yama ptrace_scope 0..3 (Documentation/admin-guide/LSM/Yama.rst):
 *   0 classic: any process with the same uid may attach
 *   1 restricted: only descendants, or a tracer named by PR_SET_PTRACER,
 *     or CAP_SYS_PTRACE
 *   2 admin-only: CAP_SYS_PTRACE required (also for PTRACE_TRACEME)
 *   3 no attach at all, and the setting cannot be lowered any more
 * Scope 3 is sticky until reboot, so it runs last.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "lsmverify.h"

#define SCOPE	"/proc/sys/kernel/yama/ptrace_scope"
#define USER	1000

static void idle_forever(void)
{
	for (;;)
		pause();
}

static int attach(pid_t target)
{
	int status;

	if (ptrace(PTRACE_ATTACH, target, NULL, NULL))
		return -errno;
	waitpid(target, &status, __WALL);
	ptrace(PTRACE_DETACH, target, NULL, NULL);
	return 0;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, __WALL);
}

static int become(bool user)
{
	return user ? lv_become_user(USER) : 0;
}

/* The lab process: a parent attaches to its own child. */
static int lab_parent_child(bool user)
{
	pid_t target;
	int rc;

	if (become(user))
		return LV_CHILD_SETUP;
	target = fork();
	if (target < 0)
		return LV_CHILD_SETUP;
	if (target == 0)
		idle_forever();
	rc = attach(target);
	reap(target);
	return -rc;
}

/*
 * The lab forks a tracer X and a target T (siblings).  T optionally names X
 * with PR_SET_PTRACER, then X tries to attach to T.
 */
static int lab_sibling(bool user, bool named)
{
	int go[2], ready[2], status;
	pid_t tracer, target;
	char c = 0;

	if (become(user) || pipe(go) || pipe(ready))
		return LV_CHILD_SETUP;
	tracer = fork();
	if (tracer < 0)
		return LV_CHILD_SETUP;
	if (tracer == 0) {
		pid_t t;

		if (read(go[0], &t, sizeof(t)) != sizeof(t))
			_exit(LV_CHILD_SETUP);
		_exit(-attach(t));
	}
	target = fork();
	if (target < 0)
		return LV_CHILD_SETUP;
	if (target == 0) {
		if (named && prctl(PR_SET_PTRACER, tracer, 0, 0, 0))
			_exit(LV_CHILD_SETUP);
		if (write(ready[1], &c, 1) != 1)
			_exit(LV_CHILD_SETUP);
		idle_forever();
	}
	if (read(ready[0], &c, 1) != 1 ||
	    write(go[1], &target, sizeof(target)) != sizeof(target)) {
		reap(tracer);
		reap(target);
		return LV_CHILD_SETUP;
	}
	waitpid(tracer, &status, 0);
	reap(target);
	return WIFEXITED(status) ? WEXITSTATUS(status) : LV_CHILD_SETUP;
}

/* A child asks to be traced by its parent. */
static int lab_traceme(bool user)
{
	pid_t child;
	int status;

	if (become(user))
		return LV_CHILD_SETUP;
	child = fork();
	if (child < 0)
		return LV_CHILD_SETUP;
	if (child == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(errno);
		_exit(0);
	}
	waitpid(child, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : LV_CHILD_SETUP;
}

enum scenario { PARENT_CHILD, SIBLING, SIBLING_NAMED, TRACEME };

static int run_lab(enum scenario sc, bool user)
{
	pid_t pid;
	int code = LV_CHILD_SETUP;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -EAGAIN;
	if (pid == 0) {
		switch (sc) {
		case PARENT_CHILD:
			code = lab_parent_child(user);
			break;
		case SIBLING:
			code = lab_sibling(user, false);
			break;
		case SIBLING_NAMED:
			code = lab_sibling(user, true);
			break;
		case TRACEME:
			code = lab_traceme(user);
			break;
		}
		_exit(code);
	}
	return lv_wait_result(pid);
}

static int prep_nocap(const void *ctx)
{
	static const int keep[] = { CAP_DAC_OVERRIDE };

	return lv_drop_caps(keep, 1);
}

static void scope_cases(int scope)
{
	char name[64], val[8];
	int err;

	snprintf(val, sizeof(val), "%d", scope);
	snprintf(name, sizeof(name), "scope%d_set", scope);
	err = lv_write_str(SCOPE, val);
	lv_case(name, err);
	if (err) {
		lv_setup_fail(SCOPE, err);
		return;
	}
#define CASE(suffix, sc, user) do { \
		snprintf(name, sizeof(name), "scope%d_%s", scope, suffix); \
		lv_case(name, run_lab(sc, user)); \
	} while (0)
	CASE("user_parent_child", PARENT_CHILD, true);
	CASE("user_sibling", SIBLING, true);
	CASE("user_sibling_ptracer", SIBLING_NAMED, true);
	CASE("user_traceme", TRACEME, true);
	CASE("root_parent_child", PARENT_CHILD, false);
	CASE("root_sibling", SIBLING, false);
#undef CASE
}

int lv_suite_yama(void)
{
	int scope;

	/* Only CAP_SYS_PTRACE may change the scope. */
	lv_case("nocap_set_scope", lv_child(prep_nocap, NULL, "put", SCOPE "=0"));
	for (scope = 0; scope <= 3; scope++)
		scope_cases(scope);
	/* 3 is the maximum and, once set, the minimum too. */
	lv_case("scope3_lower", lv_write_str(SCOPE, "1"));
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * fooa: a legacy module whose function names recur in foob.c in other
 * roles (tests/cocci/run.sh: the output must not depend on --jobs).
 * Here foo_capable is the capable hook: its capability chain goes;
 * foo_task_hook is the task_getscheduler hook, for which capability
 * registers no cap_task_setscheduler: its chain stays; foo_ptrace_traceme
 * was global only for CONFIG_SECURITY_YAMA_STACKED: static again;
 * foo_task_free is registered unguarded: it stays global.
 */

#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include <linux/sched.h>

static int foo_capable(const struct cred *cred, struct user_namespace *ns,
		       int cap, int audit)
{
	return fooa_policy(cred, cap);
}

static int foo_task_hook(struct task_struct *p)
{
	int rc;

	rc = cap_task_setscheduler(p);
	if (rc)
		return rc;

	return fooa_task_check(p);
}

static int foo_ptrace_traceme(struct task_struct *parent)
{
	return fooa_traceme(parent);
}

void foo_task_free(struct task_struct *task)
{
	fooa_forget(task);
}

static struct security_hook_list fooa_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(capable, foo_capable),
	LSM_HOOK_INIT(task_getscheduler, foo_task_hook),
	LSM_HOOK_INIT(task_free, foo_task_free),
	LSM_HOOK_INIT(ptrace_traceme, foo_ptrace_traceme),
};

static __init int fooa_init(void)
{
	security_add_hooks(fooa_hooks, ARRAY_SIZE(fooa_hooks), "fooa");

	return 0;
}

DEFINE_LSM(fooa) = {
	.name = "fooa",
	.init = fooa_init,
};

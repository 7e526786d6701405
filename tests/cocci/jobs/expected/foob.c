// SPDX-License-Identifier: GPL-2.0
/*
 * foob: a legacy module that uses the function names of fooa.c in other
 * roles (tests/cocci/run.sh: the output must not depend on --jobs).
 * Here foo_capable is a helper, not a hook: its capability call stays;
 * foo_task_hook is the task_setscheduler hook: its chain goes;
 * foo_ptrace_traceme is registered unguarded: it stays global;
 * foo_task_free was global only for CONFIG_SECURITY_YAMA_STACKED: static
 * again.
 */

#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include <linux/sched.h>

static int foo_capable(const struct cred *cred, struct user_namespace *ns,
		       int cap, int audit)
{
	int rc;

	rc = cap_capable(cred, ns, cap, audit);
	if (rc)
		return rc;

	return foob_policy(cred, cap);
}

static int foo_task_hook(struct task_struct *p)
{
	return foob_task_check(p);
}

int foo_ptrace_traceme(struct task_struct *parent)
{
	return foob_traceme(parent);
}

static void foo_task_free(struct task_struct *task)
{
	foob_forget(task);
}

static int foob_ptrace_access_check(struct task_struct *child,
				    unsigned int mode)
{
	return foo_capable(current_cred(), task_user_ns(child), CAP_SYS_PTRACE, 0);
}

static struct security_hook_list foob_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(ptrace_access_check, foob_ptrace_access_check),
	LSM_HOOK_INIT(task_setscheduler, foo_task_hook),
	LSM_HOOK_INIT(ptrace_traceme, foo_ptrace_traceme),
	LSM_HOOK_INIT(task_free, foo_task_free),
};

static __init int foob_init(void)
{
	security_add_hooks(foob_hooks, ARRAY_SIZE(foob_hooks), "foob");

	return 0;
}

DEFINE_LSM(foob) = {
	.name = "foob",
	.init = foob_init,
};

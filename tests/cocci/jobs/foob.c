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
	int rc;

	rc = cap_task_setscheduler(p);
	if (rc)
		return rc;

	return foob_task_check(p);
}

int foo_ptrace_traceme(struct task_struct *parent)
{
	return foob_traceme(parent);
}

void foo_task_free(struct task_struct *task)
{
	foob_forget(task);
}

static int foob_ptrace_access_check(struct task_struct *child,
				    unsigned int mode)
{
	return foo_capable(current_cred(), task_user_ns(child), CAP_SYS_PTRACE, 0);
}

static struct security_operations foob_ops = {
	.name =			"foob",

	.ptrace_access_check =	foob_ptrace_access_check,
	.task_setscheduler =	foo_task_hook,
	.ptrace_traceme =	foo_ptrace_traceme,
#ifndef CONFIG_SECURITY_YAMA_STACKED
	.task_free =		foo_task_free,
#endif
};

static __init int foob_init(void)
{
	if (!security_module_enable(&foob_ops))
		return 0;

	if (register_security(&foob_ops))
		panic("foob: kernel registration failed.\n");

	return 0;
}

security_initcall(foob_init);

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
#include <linux/sched.h>

static int foo_capable(const struct cred *cred, struct user_namespace *ns,
		       int cap, int audit)
{
	int rc;

	rc = cap_capable(cred, ns, cap, audit);
	if (rc)
		return rc;

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

int foo_ptrace_traceme(struct task_struct *parent)
{
	return fooa_traceme(parent);
}

void foo_task_free(struct task_struct *task)
{
	fooa_forget(task);
}

static struct security_operations fooa_ops = {
	.name =			"fooa",

	.capable =		foo_capable,
	.task_getscheduler =	foo_task_hook,
	.task_free =		foo_task_free,
#ifndef CONFIG_SECURITY_YAMA_STACKED
	.ptrace_traceme =	foo_ptrace_traceme,
#endif
};

static __init int fooa_init(void)
{
	if (!security_module_enable(&fooa_ops))
		return 0;

	if (register_security(&fooa_ops))
		panic("fooa: kernel registration failed.\n");

	return 0;
}

security_initcall(fooa_init);

// SPDX-License-Identifier: GPL-2.0
/* the chain's variable declared and initialised by the cap call */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_ptrace_traceme(struct task_struct *parent)
{
	int rc = cap_ptrace_traceme(parent);

	if (rc)
		return rc;
	return foo_check_parent(parent);
}

static int foo_task_setnice(struct task_struct *p, int nice)
{
	int rc = cap_task_setnice(p, nice);

	if (rc)
		return rc;
	rc = foo_check_nice(p, nice);
	return rc;
}

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(ptrace_traceme, foo_ptrace_traceme),
	LSM_HOOK_INIT(task_setnice, foo_task_setnice),
};

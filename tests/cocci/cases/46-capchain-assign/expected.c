// SPDX-License-Identifier: GPL-2.0
/* a leading capability chain that capability's own hook list replaces */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_capable(const struct cred *cred, struct user_namespace *ns,
		       int cap, int audit)
{
	return foo_cred_has_capability(cred, cap, audit);
}

static int foo_task_setscheduler(struct task_struct *p)
{
	int error;

	error = foo_task_check(p);
	return error;
}

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(capable, foo_capable),
	LSM_HOOK_INIT(task_setscheduler, foo_task_setscheduler),
};

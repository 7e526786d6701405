// SPDX-License-Identifier: GPL-2.0
/* cap_*() in a function that is not registered for a hook: untouched */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_nice_helper(struct task_struct *p, int nice)
{
	int rc;

	rc = cap_task_setnice(p, nice);
	if (rc)
		return rc;
	return 0;
}

static int foo_task_setpgid(struct task_struct *p, pid_t pgid)
{
	return foo_nice_helper(p, 0);
}

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(task_setpgid, foo_task_setpgid),
};

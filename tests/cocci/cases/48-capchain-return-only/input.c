// SPDX-License-Identifier: GPL-2.0
/* a hook that only forwarded to capability */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_task_setioprio(struct task_struct *p, int ioprio)
{
	return cap_task_setioprio(p, ioprio);
}

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(task_setioprio, foo_task_setioprio),
};

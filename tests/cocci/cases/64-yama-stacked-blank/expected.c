// SPDX-License-Identifier: GPL-2.0
/* the removed stacking block was the first thing in the body: no blank
 * line stays at the top of the body; one between statements stays */

#include <linux/security.h>

static struct security_operations *security_ops;

int security_ptrace_access_check(struct task_struct *child, unsigned int mode)
{
	return call_int_hook(ptrace_access_check, 0, child, mode);
}

void security_task_free(struct task_struct *task)
{
	might_sleep();

	call_void_hook(task_free, task);
}

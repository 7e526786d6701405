// SPDX-License-Identifier: GPL-2.0
/* the removed stacking block was the first thing in the body: no blank
 * line stays at the top of the body; one between statements stays */

#include <linux/security.h>

static struct security_operations *security_ops;

int security_ptrace_access_check(struct task_struct *child, unsigned int mode)
{
#ifdef CONFIG_SECURITY_YAMA_STACKED
	int rc;

	rc = yama_ptrace_access_check(child, mode);
	if (rc)
		return rc;
#endif

	return security_ops->ptrace_access_check(child, mode);
}

void security_task_free(struct task_struct *task)
{
	might_sleep();

#ifdef CONFIG_SECURITY_YAMA_STACKED
	yama_task_free(task);
#endif

	security_ops->task_free(task);
}

// SPDX-License-Identifier: GPL-2.0
/* a void hook used as a value cannot become call_void_hook() */

#include <linux/security.h>

static struct security_operations *security_ops;

void security_task_free(struct task_struct *task)
{
	return security_ops->task_free(task);
}

void security_cred_free(struct cred *cred)
{
	call_void_hook(cred_free, cred);
}

// SPDX-License-Identifier: GPL-2.0
/* Yama's ad hoc stacking in the security.c wrappers */

#include <linux/security.h>

static struct security_operations *security_ops;

int security_ptrace_access_check(struct task_struct *child, unsigned int mode)
{
	return call_int_hook(ptrace_access_check, 0, child, mode);
}

void security_task_free(struct task_struct *task)
{
	call_void_hook(task_free, task);
}

int security_task_prctl(int option, unsigned long arg2, unsigned long arg3,
			unsigned long arg4, unsigned long arg5)
{
	return security_ops->task_prctl(option, arg2, arg3, arg4, arg5);
}

int security_ptrace_traceme(struct task_struct *parent)
{
	int rc;

	rc = call_int_hook(ptrace_traceme, 0, parent);
	return rc;
}

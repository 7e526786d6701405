// SPDX-License-Identifier: GPL-2.0
/* Yama's ad hoc stacking in the security.c wrappers */

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
#ifdef CONFIG_SECURITY_YAMA_STACKED
	yama_task_free(task);
#endif
	security_ops->task_free(task);
}

int security_task_prctl(int option, unsigned long arg2, unsigned long arg3,
			unsigned long arg4, unsigned long arg5)
{
#ifdef CONFIG_SECURITY_YAMA_STACKED
	int rc;
	rc = yama_task_prctl(option, arg2, arg3, arg4, arg5);
	if (rc != -ENOSYS)
		return rc;
#endif
	return security_ops->task_prctl(option, arg2, arg3, arg4, arg5);
}

int security_ptrace_traceme(struct task_struct *parent)
{
	int rc;

#ifdef CONFIG_SECURITY_YAMA_STACKED
	rc = yama_ptrace_traceme(parent);
	if (rc)
		return rc;
#endif
	rc = security_ops->ptrace_traceme(parent);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/* the legacy framework file: wrappers get the target's calling macros */

#include <linux/security.h>

static struct security_operations *security_ops;

int __init register_security(struct security_operations *ops)
{
	if (security_ops != &default_security_ops)
		return -EAGAIN;
	security_ops = ops;
	return 0;
}

/* Security operations */

int security_syslog(int type)
{
	return security_ops->syslog(type);
}

void security_task_free(struct task_struct *task)
{
	security_ops->task_free(task);
}

// SPDX-License-Identifier: GPL-2.0
/* yama_*() calls that are not Yama's stacking block: left */

#include <linux/security.h>

static struct security_operations *security_ops;

int security_ptrace_traceme(struct task_struct *parent)
{
	yama_ptrace_traceme(parent);
	return call_int_hook(ptrace_traceme, 0, parent);
}

int yama_report(struct task_struct *task)
{
	yama_task_free(task);
	return 0;
}

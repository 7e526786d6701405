// SPDX-License-Identifier: GPL-2.0-only
/*
 * Yama Linux Security Module (trimmed from Linux 4.0)
 */

#include <linux/security.h>
#include <linux/sched.h>

static int yama_ptrace_access_check(struct task_struct *child,
				    unsigned int mode)
{
	return 0;
}

static int yama_ptrace_traceme(struct task_struct *parent)
{
	return 0;
}

static int yama_task_prctl(int option, unsigned long arg2, unsigned long arg3,
			   unsigned long arg4, unsigned long arg5)
{
	return -ENOSYS;
}

static void yama_task_free(struct task_struct *task)
{
}

static struct security_operations yama_ops = {
	.name =			"yama",

	.ptrace_access_check =	yama_ptrace_access_check,
	.ptrace_traceme =	yama_ptrace_traceme,
	.task_prctl =		yama_task_prctl,
	.task_free =		yama_task_free,
};

static __init int yama_init(void)
{
	if (!security_module_enable(&yama_ops))
		return 0;

	printk(KERN_INFO "Yama: becoming mindful.\n");

	if (register_security(&yama_ops))
		panic("Yama: kernel registration failed.\n");

	return 0;
}

security_initcall(yama_init);

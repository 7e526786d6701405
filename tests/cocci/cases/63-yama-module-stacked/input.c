// SPDX-License-Identifier: GPL-2.0-only
/*
 * Yama as Linux 4.0 had it: global hooks for security.c's ad hoc stacking
 * (CONFIG_SECURITY_YAMA_STACKED), registration only when not stacked
 */

#include <linux/security.h>
#include <linux/sched.h>

int yama_ptrace_access_check(struct task_struct *child,
			     unsigned int mode)
{
	return 0;
}

int yama_ptrace_traceme(struct task_struct *parent)
{
	return 0;
}

static int yama_task_prctl(int option, unsigned long arg2, unsigned long arg3,
			   unsigned long arg4, unsigned long arg5)
{
	return -ENOSYS;
}

int yama_helper(void)
{
	return 1;
}

#ifndef CONFIG_SECURITY_YAMA_STACKED
static struct security_operations yama_ops = {
	.name =			"yama",

	.ptrace_access_check =	yama_ptrace_access_check,
	.ptrace_traceme =	yama_ptrace_traceme,
	.task_prctl =		yama_task_prctl,
};
#endif

static __init int yama_init(void)
{
#ifndef CONFIG_SECURITY_YAMA_STACKED
	if (!security_module_enable(&yama_ops))
		return 0;
#endif

	printk(KERN_INFO "Yama: becoming mindful.\n");

#ifndef CONFIG_SECURITY_YAMA_STACKED
	if (register_security(&yama_ops))
		panic("Yama: kernel registration failed.\n");
#endif

	return 0;
}

security_initcall(yama_init);

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Yama as Linux 4.0 had it: global hooks for security.c's ad hoc stacking
 * (CONFIG_SECURITY_YAMA_STACKED), registration only when not stacked
 */

#include <linux/security.h>
#include <linux/lsm_hooks.h>
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

int yama_helper(void)
{
	return 1;
}

static struct security_hook_list yama_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(ptrace_access_check, yama_ptrace_access_check),
	LSM_HOOK_INIT(ptrace_traceme, yama_ptrace_traceme),
	LSM_HOOK_INIT(task_prctl, yama_task_prctl),
};

static __init int yama_init(void)
{
	printk(KERN_INFO "Yama: becoming mindful.\n");

	security_add_hooks(yama_hooks, ARRAY_SIZE(yama_hooks), "yama");

	return 0;
}

DEFINE_LSM(yama) = {
	.name = "yama",
	.init = yama_init,
};

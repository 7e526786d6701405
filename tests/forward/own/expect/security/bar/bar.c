/* bar: a module security.c stacks by hand (lsmconv test fixture, Yama's shape) */

#include <linux/lsm_hooks.h>

int bar_task_prctl(int option, unsigned long arg2)
{
	return option == 99 ? 0 : -ENOSYS;
}

int bar_ptrace_access_check(struct task_struct *child, unsigned int mode)
{
	return mode ? -EPERM : 0;
}

static struct security_hook_list bar_hooks[] = {
	LSM_HOOK_INIT(ptrace_access_check, bar_ptrace_access_check),
	LSM_HOOK_INIT(task_prctl, bar_task_prctl),
};

void __init bar_add_hooks(void)
{
	security_add_hooks(bar_hooks, ARRAY_SIZE(bar_hooks));
}

static __init int bar_init(void)
{
#ifndef CONFIG_SECURITY_BAR_STACKED
	if (!security_module_enable("bar"))
		return 0;
#endif

#ifndef CONFIG_SECURITY_BAR_STACKED
	security_add_hooks(bar_hooks, ARRAY_SIZE(bar_hooks));
#endif

	return 0;
}

security_initcall(bar_init);

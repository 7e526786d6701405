/* bar: a module security.c stacks by hand (lsmconv test fixture, Yama's shape) */

#include <linux/security.h>

int bar_task_prctl(int option, unsigned long arg2)
{
	int rc;

	rc = cap_task_prctl(option, arg2);
	if (rc != -ENOSYS)
		return rc;

	return option == 99 ? 0 : -ENOSYS;
}

int bar_ptrace_access_check(struct task_struct *child, unsigned int mode)
{
	int rc;

	rc = cap_ptrace_access_check(child, mode);
	if (rc)
		return rc;

	return mode ? -EPERM : 0;
}

#ifndef CONFIG_SECURITY_BAR_STACKED
static struct security_operations bar_ops = {
	.name =			"bar",
	.ptrace_access_check =	bar_ptrace_access_check,
	.task_prctl =		bar_task_prctl,
};
#endif

static __init int bar_init(void)
{
#ifndef CONFIG_SECURITY_BAR_STACKED
	if (!security_module_enable(&bar_ops))
		return 0;
#endif

#ifndef CONFIG_SECURITY_BAR_STACKED
	if (register_security(&bar_ops))
		panic("bar: kernel registration failed.\n");
#endif

	return 0;
}

security_initcall(bar_init);

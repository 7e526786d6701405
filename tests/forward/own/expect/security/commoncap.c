/* Common capabilities (lsmconv test fixture) */

#include <linux/lsm_hooks.h>

int cap_capable(const struct cred *cred, int cap)
{
	return 0;
}

int cap_ptrace_access_check(struct task_struct *child, unsigned int mode)
{
	return 0;
}

int cap_task_prctl(int option, unsigned long arg2)
{
	return -ENOSYS;
}

#ifdef CONFIG_SECURITY

struct security_hook_list capability_hooks[] = {
	LSM_HOOK_INIT(capable, cap_capable),
	LSM_HOOK_INIT(ptrace_access_check, cap_ptrace_access_check),
	LSM_HOOK_INIT(task_prctl, cap_task_prctl),
};

void __init capability_add_hooks(void)
{
	security_add_hooks(capability_hooks, ARRAY_SIZE(capability_hooks));
}

#endif /* CONFIG_SECURITY */

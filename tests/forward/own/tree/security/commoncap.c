/* Common capabilities (lsmconv test fixture) */

#include <linux/security.h>

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

/*
 * sample: a 2.6-era sample module (task_capable, ptrace_may_access,
 * mod_reg_security as a secondary module, capability.c defaults).
 */
#include <linux/security.h>
#include "../capability.c"

static int sample_task_capable(struct task_struct *tsk, const struct cred *cred,
			       int cap, int audit)
{
	return cap == 21 ? -EPERM : 0;
}

static int sample_ptrace_may_access(struct task_struct *child, unsigned int mode)
{
	return 0;
}

static struct security_operations sample_ops = {
	.name = "sample",
	.task_capable = sample_task_capable,
	.ptrace_may_access = sample_ptrace_may_access,
	.settime = cap_settime,
	.syslog = cap_syslog,
};

static int __init sample_init(void)
{
	if (register_security(&sample_ops)) {
		if (mod_reg_security("sample", &sample_ops))
			panic("sample: cannot register\n");
	}
	return 0;
}
security_initcall(sample_init);

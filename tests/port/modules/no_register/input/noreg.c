// SPDX-License-Identifier: GPL-2.0
/* noreg: an initializer that nothing in the module registers. */
#include <linux/security.h>

static int noreg_task_kill(struct task_struct *p, struct kernel_siginfo *info,
			   int sig, const struct cred *cred)
{
	return sig == 63 ? -EPERM : 0;
}

static struct security_operations noreg_ops = {
	.name = "noreg",
	.task_kill = noreg_task_kill,
};

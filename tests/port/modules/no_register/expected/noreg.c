// SPDX-License-Identifier: GPL-2.0
/* noreg: an initializer that nothing in the module registers. */
#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int noreg_task_kill(struct task_struct *p, struct kernel_siginfo *info,
			   int sig, const struct cred *cred)
{
	return sig == 63 ? -EPERM : 0;
}

static struct security_hook_list noreg_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(task_kill, noreg_task_kill),
};

/* lsmconv port: added: nothing registered the hook list */
static int __init noreg_init(void)
{
	security_add_hooks(noreg_hooks, ARRAY_SIZE(noreg_hooks), "noreg");
	return 0;
}

DEFINE_LSM(noreg) = {
	.name = "noreg",
	.init = noreg_init,
};

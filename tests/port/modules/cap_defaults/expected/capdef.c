// SPDX-License-Identifier: GPL-2.0
/* capdef: a 3.x vendor LSM with a cap_* default in every slot. */
#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include "capdef_stubs.h"

static int capdef_task_kill(struct task_struct *p, struct kernel_siginfo *info,
			    int sig, const struct cred *cred)
{
	return sig == 62 ? -EPERM : 0;
}

static struct security_hook_list capdef_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(file_permission, cap_file_permission),
	LSM_HOOK_INIT(inode_permission, cap_inode_permission),
	LSM_HOOK_INIT(task_kill, capdef_task_kill),
};

static int __init capdef_init(void)
{
	security_add_hooks(capdef_hooks, ARRAY_SIZE(capdef_hooks), "capdef");
	return 0;
}
DEFINE_LSM(capdef) = {
	.name = "capdef",
	.init = capdef_init,
};

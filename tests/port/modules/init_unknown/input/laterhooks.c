// SPDX-License-Identifier: GPL-2.0
/*
 * laterhooks: LSM_HOOK_INIT() entries naming hooks the target does not
 * have: one from a later kernel (file_truncate), two renamed ones.
 */
#include <linux/lsm_hooks.h>

static int laterhooks_file_truncate(struct file *file)
{
	return 0;
}

static int laterhooks_dentry_open(struct file *file, const struct cred *cred)
{
	return 0;
}

static int laterhooks_ptrace(struct task_struct *child, unsigned int mode)
{
	return 0;
}

static struct security_hook_list laterhooks_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(file_truncate, laterhooks_file_truncate),
	LSM_HOOK_INIT(dentry_open, laterhooks_dentry_open),
	LSM_HOOK_INIT(ptrace_may_access, laterhooks_ptrace),
};

static int __init laterhooks_init(void)
{
	security_add_hooks(laterhooks_hooks, ARRAY_SIZE(laterhooks_hooks), "laterhooks");
	return 0;
}

DEFINE_LSM(laterhooks) = {
	.name = "laterhooks",
	.init = laterhooks_init,
};

// SPDX-License-Identifier: GPL-2.0
/* posv: positional initializer, struct in a vendor header. */
#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include "vendor_security.h"

static int posv_file_permission(struct file *file, int mask)
{
	return 0;
}

static int posv_vendor_audit(int what)
{
	return 0;
}

static int posv_task_kill(struct task_struct *p, struct kernel_siginfo *info,
			  int sig, const struct cred *cred)
{
	return sig == 64 ? -EPERM : 0;
}

static struct security_hook_list posv_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(file_permission, posv_file_permission),
	posv_vendor_audit,
	LSM_HOOK_INIT(task_kill, posv_task_kill),
};

static int __init posv_init(void)
{
	security_add_hooks(posv_hooks, ARRAY_SIZE(posv_hooks), "posv");
	return 0;
}
DEFINE_LSM(posv) = {
	.name = "posv",
	.init = posv_init,
};

// SPDX-License-Identifier: GPL-2.0
/* posv: positional initializer, struct in a vendor header. */
#include <linux/security.h>
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

static struct security_operations posv_ops = {
	"posv",
	cap_ptrace_access_check,
	NULL,
	posv_file_permission,
	posv_vendor_audit,
	posv_task_kill,
};

static int __init posv_init(void)
{
	if (register_security(&posv_ops))
		panic("posv: cannot register\n");
	return 0;
}
security_initcall(posv_init);

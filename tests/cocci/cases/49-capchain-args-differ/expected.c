// SPDX-License-Identifier: GPL-2.0
/* the module asks capability something else than the hook got: kept */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_ptrace_access_check(struct task_struct *child,
				   unsigned int mode)
{
	int rc;

	rc = cap_ptrace_access_check(child, mode | PTRACE_MODE_NOAUDIT);
	if (rc)
		return rc;
	return foo_ptrace_check(child, mode);
}

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(ptrace_access_check, foo_ptrace_access_check),
};

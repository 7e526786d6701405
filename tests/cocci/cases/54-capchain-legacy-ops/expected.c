// SPDX-License-Identifier: GPL-2.0
/* end to end: legacy ops initializer, then the chain in its hooks */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_ptrace_access_check(struct task_struct *child,
				   unsigned int mode)
{
	return foo_may_trace(current, child, mode);
}

static int foo_capset(struct cred *new, const struct cred *old,
		      const kernel_cap_t *effective,
		      const kernel_cap_t *inheritable,
		      const kernel_cap_t *permitted)
{
	return 0;
}

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(ptrace_access_check, foo_ptrace_access_check),
	LSM_HOOK_INIT(capset, foo_capset),
};

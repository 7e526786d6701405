// SPDX-License-Identifier: GPL-2.0
/* end to end: legacy ops initializer, then the chain in its hooks */

#include <linux/security.h>

static int foo_ptrace_access_check(struct task_struct *child,
				   unsigned int mode)
{
	int rc;

	rc = cap_ptrace_access_check(child, mode);
	if (rc)
		return rc;
	return foo_may_trace(current, child, mode);
}

static int foo_capset(struct cred *new, const struct cred *old,
		      const kernel_cap_t *effective,
		      const kernel_cap_t *inheritable,
		      const kernel_cap_t *permitted)
{
	return cap_capset(new, old, effective, inheritable, permitted);
}

static struct security_operations foo_ops = {
	.name =				"foo",

	.ptrace_access_check =		foo_ptrace_access_check,
	.capset =			foo_capset,
};

// SPDX-License-Identifier: GPL-2.0
/* the capability call comes after the module's own check: kept */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_capget(struct task_struct *target, kernel_cap_t *effective,
		      kernel_cap_t *inheritable, kernel_cap_t *permitted)
{
	int error;

	error = foo_has_perm(current, target);
	if (error)
		return error;

	return cap_capget(target, effective, inheritable, permitted);
}

static int foo_mmap_addr(unsigned long addr)
{
	int rc;

	if (addr < foo_mmap_min)
		return -EACCES;
	rc = cap_mmap_addr(addr);
	if (rc)
		return rc;
	return 0;
}

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(capget, foo_capget),
	LSM_HOOK_INIT(mmap_addr, foo_mmap_addr),
};

// SPDX-License-Identifier: GPL-2.0
/* a chain whose variable the rest of the hook reads: it starts at the
 * value that passed the check (4.0's Yama and selinux_mmap_addr) */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_mmap_addr(unsigned long addr)
{
	int rc;

	rc = cap_mmap_addr(addr);
	if (rc)
		return rc;

	if (addr < 4096)
		rc = foo_check_low(addr);

	return rc;
}

static int foo_task_prctl(int option, unsigned long arg2, unsigned long arg3,
			  unsigned long arg4, unsigned long arg5)
{
	int rc = 1;

	rc = cap_task_prctl(option, arg2, arg3, arg4, arg5);
	if (rc != -ENOSYS)
		return rc;

	switch (option) {
	case 77:
		rc = 0;
		break;
	}
	return rc;
}

static int foo_ptrace_traceme(struct task_struct *parent)
{
	int rc = cap_ptrace_traceme(parent);
	if (rc)
		return rc;

	if (foo_strict)
		rc = -EPERM;
	return rc;
}

static int foo_capget(struct task_struct *target, kernel_cap_t *effective,
		      kernel_cap_t *inheritable, kernel_cap_t *permitted)
{
	int rc = foo_prepare(target);

	rc = cap_capget(target, effective, inheritable, permitted);
	if (rc)
		return rc;

	if (foo_strict)
		rc = foo_mask(effective);
	return rc;
}

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(mmap_addr, foo_mmap_addr),
	LSM_HOOK_INIT(task_prctl, foo_task_prctl),
	LSM_HOOK_INIT(ptrace_traceme, foo_ptrace_traceme),
	LSM_HOOK_INIT(capget, foo_capget),
};

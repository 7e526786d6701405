// SPDX-License-Identifier: GPL-2.0
/* chains after initialised declarations, and the stop conditions of the
 * target's dispatch: call_int_hook (cap_rc), every module must agree
 * (cap_rc <= 0), first non-default answer wins (cap_rc != default); a
 * condition that is not the target's is kept and reported */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_ptrace_access_check(struct task_struct *child, unsigned int mode)
{
	u32 sid = current_sid();
	u32 csid = task_sid_obj(child);

	return foo_check(sid, csid, mode);
}

static int foo_vm_enough_memory(struct mm_struct *mm, long pages)
{
	int rc, cap_sys_admin = 0;

	rc = foo_has_admin();
	if (rc == 0)
		cap_sys_admin = 1;
	return cap_sys_admin;
}

static int foo_inode_getsecurity(struct user_namespace *mnt_userns,
				 struct inode *inode, const char *name,
				 void **buffer, bool alloc)
{
	int error;
	char *context = NULL;

	error = foo_context(inode, &context);
	if (error)
		return error;
	*buffer = context;
	return strlen(context);
}

static int foo_task_prctl(int option, unsigned long arg2, unsigned long arg3,
			  unsigned long arg4, unsigned long arg5)
{
	int rc = -ENOSYS;

	if (option == PR_SET_PTRACER)
		rc = foo_set_ptracer(arg2);
	return rc;
}

static int foo_task_setnice(struct task_struct *p, int nice)
{
	int cap_rc;

	cap_rc = cap_task_setnice(p, nice);
	if (cap_rc <= 0)
		return cap_rc;

	return foo_nice(p, nice);
}

static int foo_mmap_addr(unsigned long addr)
{
	int rc = cap_mmap_addr(addr);

	if (rc != -EOPNOTSUPP)
		return rc;
	return foo_addr(addr);
}

static int foo_vm_enough_memory2(struct mm_struct *mm, long pages)
{
	return cap_vm_enough_memory(mm, pages);
}

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(ptrace_access_check, foo_ptrace_access_check),
	LSM_HOOK_INIT(vm_enough_memory, foo_vm_enough_memory),
	LSM_HOOK_INIT(inode_getsecurity, foo_inode_getsecurity),
	LSM_HOOK_INIT(task_prctl, foo_task_prctl),
	LSM_HOOK_INIT(task_setnice, foo_task_setnice),
	LSM_HOOK_INIT(mmap_addr, foo_mmap_addr),
	LSM_HOOK_INIT(vm_enough_memory, foo_vm_enough_memory2),
};

// SPDX-License-Identifier: GPL-2.0
/* ren: hooks renamed or removed since, with their old signatures. */
#include <linux/security.h>
#include <linux/binfmts.h>

static int ren_dentry_open(struct file *file, const struct cred *cred)
{
	return 0;
}

static int ren_file_mmap(struct file *file, unsigned long reqprot,
			 unsigned long prot, unsigned long flags,
			 unsigned long addr, unsigned long addr_only)
{
	return 0;
}

static int ren_task_create(unsigned long clone_flags)
{
	return 0;
}

static int ren_ptrace_may_access(struct task_struct *child, unsigned int mode)
{
	return 0;
}

static int ren_bprm_set_creds(struct linux_binprm *bprm)
{
	return 0;
}

static int ren_bprm_secureexec(struct linux_binprm *bprm)
{
	return 0;
}

static int ren_inode_create(struct inode *dir, struct dentry *dentry, int mode)
{
	return 0;
}

static struct security_operations ren_ops = {
	.name = "ren",
	.dentry_open = ren_dentry_open,
	.file_mmap = ren_file_mmap,
	.task_create = ren_task_create,
	.ptrace_may_access = ren_ptrace_may_access,
	.bprm_set_creds = ren_bprm_set_creds,
	.bprm_secureexec = ren_bprm_secureexec,
	.inode_create = ren_inode_create,
};

static int __init ren_init(void)
{
	if (register_security(&ren_ops))
		panic("ren: cannot register\n");
	return 0;
}
security_initcall(ren_init);

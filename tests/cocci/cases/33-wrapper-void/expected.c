// SPDX-License-Identifier: GPL-2.0
/* void hooks */

#include <linux/security.h>

static struct security_operations *security_ops;

void security_bprm_committing_creds(struct linux_binprm *bprm)
{
	call_void_hook(bprm_committing_creds, bprm);
}

void security_d_instantiate(struct dentry *dentry, struct inode *inode)
{
	if (unlikely(inode && IS_PRIVATE(inode)))
		return;
	call_void_hook(d_instantiate, dentry, inode);
}
EXPORT_SYMBOL(security_d_instantiate);

void security_secmark_refcount_inc(void)
{
	call_void_hook(secmark_refcount_inc);
}

void security_inode_free(struct inode *inode)
{
	integrity_inode_free(inode);
	if (inode)
		call_void_hook(inode_free_security, inode);
}

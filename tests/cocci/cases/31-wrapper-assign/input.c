// SPDX-License-Identifier: GPL-2.0
/* security.c wrappers that keep the hook's answer in a variable */

#include <linux/security.h>

static struct security_operations *security_ops;

int security_bprm_check(struct linux_binprm *bprm)
{
	int ret;

	ret = security_ops->bprm_check_security(bprm);
	if (ret)
		return ret;
	return ima_bprm_check(bprm);
}

int security_inode_rename(struct inode *old_dir, struct dentry *old_dentry,
			  struct inode *new_dir, struct dentry *new_dentry,
			  unsigned int flags)
{
	if (flags & RENAME_EXCHANGE) {
		int err = security_ops->inode_rename(new_dir, new_dentry,
						     old_dir, old_dentry);
		if (err)
			return err;
	}

	return security_ops->inode_rename(old_dir, old_dentry, new_dir,
					  new_dentry);
}

void security_skb_classify_flow(struct sk_buff *skb, struct flowi *fl)
{
	int rc = security_ops->xfrm_decode_session(skb, &fl->flowi_secid, 0);

	BUG_ON(rc);
}

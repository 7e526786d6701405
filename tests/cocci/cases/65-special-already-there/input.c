// SPDX-License-Identifier: GPL-2.0
/* the `*secid = 0;` and the capability fallback the target's wrapper has
 * are already there: not added a second time; a reset of another
 * variable and a fallback to another function are not the same */

#include <linux/security.h>

static struct security_operations *security_ops;

void security_cred_getsecid(const struct cred *c, u32 *secid)
{
	*secid = 0;
	security_ops->cred_getsecid(c, secid);
}

int security_secctx_to_secid(const char *secdata, u32 seclen, u32 *secid)
{
	*secid = 0;
	return security_ops->secctx_to_secid(secdata, seclen, secid);
}

void security_task_getsecid_obj(struct task_struct *p, u32 *secid)
{
	*other = 0;
	security_ops->task_getsecid_obj(p, secid);
}

int security_inode_setxattr(struct user_namespace *mnt_userns,
			    struct dentry *dentry, const char *name,
			    const void *value, size_t size, int flags)
{
	int ret;

	ret = security_ops->inode_setxattr(mnt_userns, dentry, name, value,
					   size, flags);

	if (ret == 1)
		ret = cap_inode_setxattr(dentry, name, value, size, flags);
	if (ret)
		return ret;
	return ima_inode_setxattr(dentry, name, value, size);
}

int security_inode_removexattr(struct user_namespace *mnt_userns,
			       struct dentry *dentry, const char *name)
{
	int ret;

	ret = security_ops->inode_removexattr(mnt_userns, dentry, name);
	if (ret == 1)
		ret = other_fallback(mnt_userns, dentry, name);
	return ret;
}

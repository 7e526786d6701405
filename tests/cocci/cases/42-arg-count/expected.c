// SPDX-License-Identifier: GPL-2.0
/* converted calls whose argument count differs from the target hook */

#include <linux/security.h>

static struct security_operations *security_ops;

int security_inode_getattr(struct vfsmount *mnt, struct dentry *dentry)
{
	if (unlikely(IS_PRIVATE(dentry->d_inode)))
		return 0;
	return call_int_hook(inode_getattr, 0, mnt, dentry);
}

int security_capable(const struct cred *cred, struct user_namespace *ns,
		     int cap)
{
	return call_int_hook(capable, 0, cred, ns, cap, SECURITY_CAP_AUDIT);
}

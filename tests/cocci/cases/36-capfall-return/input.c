// SPDX-License-Identifier: GPL-2.0
/* a capability-fallback hook in a shape the rule cannot extend: left */

#include <linux/security.h>

static struct security_operations *security_ops;

int security_inode_setxattr(struct dentry *dentry, const char *name,
			    const void *value, size_t size, int flags)
{
	return security_ops->inode_setxattr(dentry, name, value, size, flags);
}

// SPDX-License-Identifier: GPL-2.0
/* Smack style: cap_inode_setxattr() for attributes the module does not own */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_inode_setxattr(struct dentry *dentry, const char *name,
			      const void *value, size_t size, int flags)
{
	int rc;

	rc = cap_inode_setxattr(dentry, name, value, size, flags);
	if (rc)
		return rc;
	if (strcmp(name, XATTR_NAME_FOO) == 0)
		return foo_check_label(value, size);
	return 0;
}

static int foo_inode_removexattr(struct dentry *dentry, const char *name)
{
	if (strcmp(name, XATTR_NAME_FOO))
		return cap_inode_removexattr(dentry, name);
	return foo_may_relabel(dentry);
}

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(inode_setxattr, foo_inode_setxattr),
	LSM_HOOK_INIT(inode_removexattr, foo_inode_removexattr),
};

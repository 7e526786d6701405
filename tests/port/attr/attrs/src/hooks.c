/* attrs: the hook table (see attrs.h) */
#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include <linux/fs.h>
#include <linux/cred.h>
#include <linux/binfmts.h>
#include "attrs.h"

static int attrs_dentry_open(struct file *file, const struct cred *cred)
{
	return uid_eq(cred->fsuid, GLOBAL_ROOT_UID) ? 0 : -EACCES;
}

static int attrs_inode_unlink(struct inode *dir, struct dentry *dentry)
{
	return 0;
}

static int attrs_inode_rmdir(struct inode *dir, struct dentry *dentry)
{
	return attrs_inode_unlink(dir, dentry);
}

static struct security_hook_list attrs_hooks[] __lsm_ro_after_init = {
	.dentry_open =		attrs_dentry_open,
	LSM_HOOK_INIT(inode_unlink, attrs_inode_unlink),
	LSM_HOOK_INIT(inode_rmdir, attrs_inode_rmdir),
	.bprm_set_creds =	attrs_bprm_set_creds,
	.sysctl =		attrs_sysctl,
	LSM_HOOK_INIT(inode_mkdir, attrs_inode_mkdir),
};

static __init int attrs_init(void)
{
	security_add_hooks(attrs_hooks, ARRAY_SIZE(attrs_hooks), "attrs");
	return 0;
}

DEFINE_LSM(attrs) = {
	.name = "attrs",
	.init = attrs_init,
};

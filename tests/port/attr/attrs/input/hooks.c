/* attrs: the hook table (see attrs.h) */
#include <linux/security.h>
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

static struct security_operations attrs_ops = {
	.name =			"attrs",
	.dentry_open =		attrs_dentry_open,
	.inode_unlink =		attrs_inode_unlink,
	.inode_rmdir =		attrs_inode_rmdir,
	.bprm_set_creds =	attrs_bprm_set_creds,
	.sysctl =		attrs_sysctl,
	.inode_mkdir =		attrs_inode_mkdir,
};

static __init int attrs_init(void)
{
	if (register_security(&attrs_ops))
		panic("attrs: cannot register\n");
	return 0;
}

security_initcall(attrs_init);

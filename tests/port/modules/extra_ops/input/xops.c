// SPDX-License-Identifier: GPL-2.0
/*
 * xops: a vendor module with a run-time registration API of its own: other
 * code hands it a struct security_operations at run time
 * (xops_register_extra()) and its hooks call through that table.  Written
 * for lsmconv's tests: the table is reported once, with its uses, and named
 * as a registration API with what the hook-list API allows; a local
 * variable named like an ops vector (f_ops, a struct file_operations) is
 * not an ops vector.
 */
#include <linux/security.h>
#include <linux/fs.h>
#include <linux/module.h>

static struct security_operations *xops_extra_ops;

int xops_register_extra(struct security_operations *ops)
{
	if (xops_extra_ops)
		return -EBUSY;
	xops_extra_ops = ops;
	return 0;
}
EXPORT_SYMBOL(xops_register_extra);

static int xops_inode_unlink(struct inode *dir, struct dentry *dentry)
{
	if (xops_extra_ops && xops_extra_ops->inode_unlink)
		return xops_extra_ops->inode_unlink(dir, dentry);
	return 0;
}

static int xops_inode_rmdir(struct inode *dir, struct dentry *dentry)
{
	if (xops_extra_ops && xops_extra_ops->inode_rmdir)
		return xops_extra_ops->inode_rmdir(dir, dentry);
	return 0;
}

static int xops_file_permission(struct file *file, int mask)
{
	const struct file_operations *f_ops = file->f_op;

	if (f_ops && f_ops->read_iter && (mask & MAY_EXEC))
		return -EACCES;
	if (f_ops && f_ops->flush && (mask & MAY_WRITE))
		return f_ops->flush(file, NULL);
	return 0;
}

static struct security_operations xops_ops = {
	.name =			"xops",
	.inode_unlink =		xops_inode_unlink,
	.inode_rmdir =		xops_inode_rmdir,
	.file_permission =	xops_file_permission,
};

static __init int xops_init(void)
{
	if (register_security(&xops_ops))
		panic("xops: cannot register\n");
	return 0;
}

security_initcall(xops_init);

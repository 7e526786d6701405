// SPDX-License-Identifier: GPL-2.0
/* chain: saves the original ops and chains through it and secondary_ops. */
#include <linux/security.h>

static struct security_operations original_ops;
static struct security_operations *secondary_ops;

static int chain_inode_permission(struct inode *inode, int mask)
{
	int rc = original_ops.inode_permission(inode, mask);

	if (rc)
		return rc;
	return secondary_ops->inode_permission(inode, mask);
}

static int chain_file_open(struct file *file)
{
	return 0;
}

static struct security_operations chain_ops = {
	.name = "chain",
	.inode_permission = chain_inode_permission,
	.file_open = chain_file_open,
};

static int __init chain_init(void)
{
	original_ops = *security_ops;
	secondary_ops = security_ops;
	if (register_security(&chain_ops))
		panic("chain: cannot register\n");
	return 0;
}
security_initcall(chain_init);

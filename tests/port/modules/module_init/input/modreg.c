// SPDX-License-Identifier: GPL-2.0
/* modreg: registers its hooks from module_init(). */
#include <linux/module.h>
#include <linux/security.h>

static int modreg_inode_unlink(struct inode *dir, struct dentry *dentry)
{
	return 0;
}

static struct security_operations modreg_ops = {
	.name = "modreg",
	.inode_unlink = modreg_inode_unlink,
};

static int __init modreg_init(void)
{
	return register_security(&modreg_ops);
}

module_init(modreg_init);
MODULE_LICENSE("GPL");

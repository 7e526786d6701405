// SPDX-License-Identifier: GPL-2.0
/*
 * incl: a module that includes files that are not .c/.h (a table of names
 * in names.lst, hook entries in hooks.lst).  Written for lsmconv's tests:
 * every file the module includes is copied, and the hook list that
 * includes its entries is named.
 */
#include <linux/security.h>
#include <linux/fs.h>
#include <linux/string.h>

static const char *const incl_names[] = {
#include "names.lst"
};

static int incl_inode_unlink(struct inode *dir, struct dentry *dentry)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(incl_names); i++)
		if (!strcmp(dentry->d_name.name, incl_names[i]))
			return -EPERM;
	return 0;
}

static struct security_operations incl_ops = {
	.name =		"incl",
#include "hooks.lst"
};

static __init int incl_init(void)
{
	security_add_hooks(incl_hooks, ARRAY_SIZE(incl_hooks), "incl");
	return 0;
}

DEFINE_LSM(incl) = {
	.name = "incl",
	.init = incl_init,
};

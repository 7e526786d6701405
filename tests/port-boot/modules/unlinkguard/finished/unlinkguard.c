// SPDX-License-Identifier: GPL-2.0
/*
 * unlinkguard - a 2.6-style sample security module written for lsmconv's
 * port tests: files whose name starts with "lsmconv-deny" cannot be
 * unlinked (-EPERM); everything else is left to the capability defaults.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include <linux/dcache.h>
#include <linux/string.h>

#define UNLINKGUARD_PREFIX "lsmconv-deny"

static int unlinkguard_inode_unlink(struct inode *dir, struct dentry *dentry)
{
	if (!strncmp(dentry->d_name.name, UNLINKGUARD_PREFIX,
		     sizeof(UNLINKGUARD_PREFIX) - 1)) {
		printk(KERN_INFO "unlinkguard: denied unlink of %s\n",
		       dentry->d_name.name);
		return -EPERM;
	}
	return 0;
}

static struct security_hook_list unlinkguard_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(inode_unlink, unlinkguard_inode_unlink),
};

static __init int unlinkguard_init(void)
{
	security_add_hooks(unlinkguard_hooks, ARRAY_SIZE(unlinkguard_hooks),
			   "unlinkguard");

	printk(KERN_INFO "unlinkguard: initialized\n");
	return 0;
}

DEFINE_LSM(unlinkguard) = {
	.name = "unlinkguard",
	.init = unlinkguard_init,
};

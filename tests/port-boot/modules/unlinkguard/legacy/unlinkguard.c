// SPDX-License-Identifier: GPL-2.0
/*
 * unlinkguard - a 2.6-style sample security module written for lsmconv's
 * port tests: files whose name starts with "lsmconv-deny" cannot be
 * unlinked (-EPERM); everything else is left to the capability defaults.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/security.h>
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

static struct security_operations unlinkguard_ops = {
	.name =			"unlinkguard",
	.ptrace_access_check =	cap_ptrace_access_check,
	.ptrace_traceme =	cap_ptrace_traceme,
	.capget =		cap_capget,
	.capset =		cap_capset,
	.capable =		cap_capable,
	.inode_unlink =		unlinkguard_inode_unlink,
};

static __init int unlinkguard_init(void)
{
	if (!security_module_enable(&unlinkguard_ops))
		return 0;

	if (register_security(&unlinkguard_ops))
		panic("unlinkguard: kernel registration failed.\n");

	printk(KERN_INFO "unlinkguard: initialized\n");
	return 0;
}

security_initcall(unlinkguard_init);

// SPDX-License-Identifier: GPL-2.0
/*
 * owncfg: a module guarded by options of its own Kconfig, which the port
 * does not have (only the .c/.h files are ported).  Written for lsmconv's
 * tests: CONFIG_SECURITY_OWNCONF guards the whole module, OWNCFG_DEBUG is
 * a condition, OWNCFG_LIMIT a value; CONFIG_SECURITY (the target's) and
 * CONFIG_SECURITY_OWNCFG (make port's own option for --name owncfg) are
 * not the module's own.
 */
#include <linux/security.h>
#include <linux/fs.h>

#ifdef CONFIG_SECURITY_OWNCONF

static int owncfg_inode_unlink(struct inode *dir, struct dentry *dentry)
{
#if IS_ENABLED(CONFIG_OWNCFG_DEBUG)
	pr_info("owncfg: unlink %pd\n", dentry);
#endif
	return dentry->d_name.len > CONFIG_OWNCFG_LIMIT ? -ENAMETOOLONG : 0;
}

static struct security_operations owncfg_ops = {
	.name =		"owncfg",
	.inode_unlink =	owncfg_inode_unlink,
};

static __init int owncfg_init(void)
{
#if defined(CONFIG_SECURITY) && defined(CONFIG_SECURITY_OWNCFG)
	if (register_security(&owncfg_ops))
		panic("owncfg: cannot register\n");
#endif
	return 0;
}

security_initcall(owncfg_init);

#endif /* CONFIG_SECURITY_OWNCONF */

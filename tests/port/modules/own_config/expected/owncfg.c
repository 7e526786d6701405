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
#include <linux/lsm_hooks.h>
#include <linux/fs.h>

#ifdef CONFIG_SECURITY_OWNCONF

static int owncfg_inode_unlink(struct inode *dir, struct dentry *dentry)
{
#if IS_ENABLED(CONFIG_OWNCFG_DEBUG)
	pr_info("owncfg: unlink %pd\n", dentry);
#endif
	return dentry->d_name.len > CONFIG_OWNCFG_LIMIT ? -ENAMETOOLONG : 0;
}

static struct security_hook_list owncfg_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(inode_unlink, owncfg_inode_unlink),
};

static __init int owncfg_init(void)
{
#if defined(CONFIG_SECURITY) && defined(CONFIG_SECURITY_OWNCFG)
	security_add_hooks(owncfg_hooks, ARRAY_SIZE(owncfg_hooks), "owncfg");
#endif
	return 0;
}

DEFINE_LSM(owncfg) = {
	.name = "owncfg",
	.init = owncfg_init,
};

#endif /* CONFIG_SECURITY_OWNCONF */

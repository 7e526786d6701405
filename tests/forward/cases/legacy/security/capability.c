// SPDX-License-Identifier: GPL-2.0-or-later
/*
 *  Capabilities Linux Security Module
 *
 *  This is the default security module in case no other module is loaded.
 *  Generated from include/linux/lsm_hook_defs.h by lsmconv's rewind:
 *  one default per hook; the hooks capability implements
 *  (security/commoncap.c) default to the real cap_* functions.
 */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static void cap_task_free(struct task_struct *task)
{
}

#ifdef CONFIG_SECURITY_PATH

static int cap_path_unlink(const struct path *dir, struct dentry *dentry)
{
	return 0;
}
#endif	/* CONFIG_SECURITY_PATH */

static int cap_inode_init_security(struct inode *inode, const char **name,
				   void **value)
{
	return -EOPNOTSUPP;
}

#define set_to_cap_if_null(ops, function, dflt)			\
	do {							\
		if (!ops->function) {				\
			ops->function = dflt;			\
			pr_debug("Had to override the " #function	\
				 " security operation with the default.\n");\
		}						\
	} while (0)

void __init security_fixup_ops(struct security_operations *ops)
{
	set_to_cap_if_null(ops, capable, cap_capable);
	set_to_cap_if_null(ops, task_free, cap_task_free);
	set_to_cap_if_null(ops, task_prctl, cap_task_prctl);
#ifdef CONFIG_SECURITY_PATH
	set_to_cap_if_null(ops, path_unlink, cap_path_unlink);
#endif	/* CONFIG_SECURITY_PATH */
	set_to_cap_if_null(ops, inode_init_security, cap_inode_init_security);
}

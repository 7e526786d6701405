/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LINUX_SECURITY_H
#define __LINUX_SECURITY_H

int security_capable(const struct cred *cred, int cap);

#ifdef CONFIG_SECURITY

/* Maximum number of letters for an LSM name string */
#define SECURITY_NAME_MAX	10

struct cred;
struct dentry;
struct inode;
struct path;
struct task_struct;

/**
 * struct security_operations - main security structure
 *
 * Security module identifier.
 *
 * @name:
 *	A string that acts as a unique identifier for the LSM with max number
 *	of characters = SECURITY_NAME_MAX.
 *
 * The hooks, their arguments and return values are documented in
 * include/linux/lsm_hooks.h; this structure has one member per hook
 * of include/linux/lsm_hook_defs.h.
 */
struct security_operations {
	char name[SECURITY_NAME_MAX + 1];

	int (*capable)(const struct cred *cred, int cap);
	void (*task_free)(struct task_struct *task);
	int (*task_prctl)(int option, unsigned long arg2);

#ifdef CONFIG_SECURITY_PATH
	int (*path_unlink)(const struct path *dir, struct dentry *dentry);
#endif	/* CONFIG_SECURITY_PATH */

	int (*inode_init_security)(struct inode *inode, const char **name,
				   void **value);
};

/* prototypes */
extern int security_module_enable(struct security_operations *ops);
extern int register_security(struct security_operations *ops);
extern void security_fixup_ops(struct security_operations *ops);
#ifdef CONFIG_SECURITY_SELINUX_DISABLE
extern void reset_security_ops(void);
#endif

#ifdef CONFIG_SECURITY_YAMA_STACKED
extern int yama_task_prctl(int option, unsigned long arg2);
#endif /* CONFIG_SECURITY_YAMA_STACKED */

#endif	/* CONFIG_SECURITY */

#endif /* ! __LINUX_SECURITY_H */

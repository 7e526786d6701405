/* SPDX-License-Identifier: GPL-2.0 */
/* lsmconv test fixture: the stacked lsm_hooks.h */
#ifndef __LINUX_LSM_HOOKS_H
#define __LINUX_LSM_HOOKS_H

#include <linux/security.h>

/**
 * Hook documentation.
 */
union security_list_options {
	#define LSM_HOOK(RET, DEFAULT, NAME, ...) RET (*NAME)(__VA_ARGS__);
	#include "lsm_hook_defs.h"
	#undef LSM_HOOK
};

struct security_hook_heads {
	#define LSM_HOOK(RET, DEFAULT, NAME, ...) struct hlist_head NAME;
	#include "lsm_hook_defs.h"
	#undef LSM_HOOK
} __randomize_layout;

/*
 * Security module hook list structure.
 */
struct security_hook_list {
	struct hlist_node		list;
	struct hlist_head		*head;
	union security_list_options	hook;
	const char			*lsm;
} __randomize_layout;

/* Security blob sizes. */
struct lsm_blob_sizes {
	int	lbs_cred;
};

#define LSM_RET_VOID ((void) 0)

/*
 * Initializing a security_hook_list structure.
 */
#define LSM_HOOK_INIT(HEAD, HOOK) \
	{ .head = &security_hook_heads.HEAD, .hook = { .HEAD = HOOK } }

extern struct security_hook_heads security_hook_heads;
extern char *lsm_names;

extern void security_add_hooks(struct security_hook_list *hooks, int count,
				const char *lsm);

#ifdef CONFIG_SECURITY_SELINUX_DISABLE
/*
 * Deleting hooks.
 */
static inline void security_delete_hooks(struct security_hook_list *hooks,
						int count)
{
	int i;

	for (i = 0; i < count; i++)
		hlist_del_rcu(&hooks[i].list);
}
#endif /* CONFIG_SECURITY_SELINUX_DISABLE */

extern int lsm_inode_alloc(struct inode *inode);

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

#endif	/* CONFIG_SECURITY */

#endif /* ! __LINUX_LSM_HOOKS_H */

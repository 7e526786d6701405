/*
 * Linux Security plug (lsmconv test fixture: the shape of 4.0's)
 */

#ifndef __LINUX_LSM_HOOKS_H
#define __LINUX_LSM_HOOKS_H

#include <linux/security.h>
#include <linux/rculist.h>
#include <linux/init.h>

#ifdef CONFIG_SECURITY

/**
 * union security_list_options - main security structure
 *
 * @file_open:
 *	Check permission to open @file.
 * @capable:
 *	Check whether @cred has capability @cap.
 *
 * This is the main security structure.
 */
union security_list_options {
	int (*capable) (const struct cred *cred, int cap);
	int (*ptrace_access_check) (struct task_struct *child, unsigned int mode);
	int (*file_open) (struct file *file, const struct cred *cred);
	void (*file_free) (struct file *file);
	int (*inode_getsecurity) (const char *name, void **buffer);
	void (*task_getsecid) (struct task_struct *p, u32 *secid);
	int (*task_prctl) (int option, unsigned long arg2);
#ifdef CONFIG_SECURITY_PATH
	int (*path_unlink) (const char *dir, int dentry);
#endif	/* CONFIG_SECURITY_PATH */
};

struct security_hook_heads {
	struct list_head capable;
	struct list_head ptrace_access_check;
	struct list_head file_open;
	struct list_head file_free;
	struct list_head inode_getsecurity;
	struct list_head task_getsecid;
	struct list_head task_prctl;
#ifdef CONFIG_SECURITY_PATH
	struct list_head path_unlink;
#endif	/* CONFIG_SECURITY_PATH */
};

/*
 * Security module hook list structure.
 * For use with generic list macros for common operations.
 */
struct security_hook_list {
	struct list_head		list;
	struct list_head		*head;
	union security_list_options	hook;
};

/*
 * Initializing a security_hook_list structure takes
 * up a lot of space in a source file. This macro takes
 * care of the common case and reduces the amount of
 * text involved.
 */
#define LSM_HOOK_INIT(HEAD, HOOK) \
	{ .head = &security_hook_heads.HEAD, .hook = { .HEAD = HOOK } }

extern struct security_hook_heads security_hook_heads;

static inline void security_add_hooks(struct security_hook_list *hooks,
				      int count)
{
	int i;

	for (i = 0; i < count; i++)
		list_add_tail_rcu(&hooks[i].list, hooks[i].head);
}

/*
 * Assuring the safety of deleting a security module is up to
 * the security module involved. This may entail ordering the
 * module's hook list in a particular way, refusing to disable
 * the module once a policy is loaded or any number of other
 * actions better imagined than described.
 */
static inline void security_delete_hooks(struct security_hook_list *hooks,
						int count)
{
	int i;

	for (i = 0; i < count; i++)
		list_del_rcu(&hooks[i].list);
}

/* prototypes */
extern int __init security_module_enable(const char *module);
extern void __init capability_add_hooks(void);
#ifdef CONFIG_SECURITY_BAR_STACKED
extern void __init bar_add_hooks(void);
#endif

#endif /* CONFIG_SECURITY */

#endif /* ! __LINUX_LSM_HOOKS_H */

/*
 * Linux Security plug (lsmconv test fixture: the shape of 4.0's)
 */

#ifndef __LINUX_SECURITY_H
#define __LINUX_SECURITY_H

#include <linux/types.h>

/* Maximum number of letters for an LSM name string */
#define SECURITY_NAME_MAX	10

struct file;
struct task_struct;
struct cred;

void reset_security_ops(void);

#ifdef CONFIG_SECURITY

/**
 * struct security_operations - main security structure
 *
 * @file_open:
 *	Check permission to open @file.
 * @capable:
 *	Check whether @cred has capability @cap.
 *
 * This is the main security structure.
 */
struct security_operations {
	char name[SECURITY_NAME_MAX + 1];

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

/* prototypes */
extern int security_init(void);
extern int security_module_enable(struct security_operations *ops);
extern int register_security(struct security_operations *ops);
extern void __init security_fixup_ops(struct security_operations *ops);

/* Security operations */
int security_capable(const struct cred *cred, int cap);
int security_ptrace_access_check(struct task_struct *child, unsigned int mode);
int security_file_open(struct file *file, const struct cred *cred);
void security_file_free(struct file *file);
int security_inode_getsecurity(const char *name, void **buffer);
void security_task_getsecid(struct task_struct *p, u32 *secid);
int security_task_prctl(int option, unsigned long arg2);

#else /* CONFIG_SECURITY */

static inline int security_init(void)
{
	return 0;
}

#endif	/* CONFIG_SECURITY */

#ifdef CONFIG_SECURITY_BAR
extern int bar_ptrace_access_check(struct task_struct *child, unsigned int mode);
extern int bar_task_prctl(int option, unsigned long arg2);
#endif /* CONFIG_SECURITY_BAR */

#endif /* ! __LINUX_SECURITY_H */

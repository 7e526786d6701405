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

#ifdef CONFIG_SECURITY

/* prototypes */
extern int security_init(void);

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

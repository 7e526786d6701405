/* SPDX-License-Identifier: GPL-2.0 */
/* A vendor's copy of the legacy struct (3.x era), with a vendor hook. */
#ifndef VENDOR_SECURITY_H
#define VENDOR_SECURITY_H
struct security_operations {
	char name[11];
	int (*ptrace_access_check)(struct task_struct *child, unsigned int mode);
	int (*ptrace_traceme)(struct task_struct *parent);
	int (*file_permission)(struct file *file, int mask);
	int (*vendor_audit)(int what);
	int (*task_kill)(struct task_struct *p, struct kernel_siginfo *info, int sig, const struct cred *cred);
};
#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * vmac: a vendor module with macros of its own.  Written for lsmconv's
 * tests: a multi-line `#define ... while (0)` before the hook functions
 * (their definitions must still be found: no "no definition" todo), and
 * hook-list designators that are the module's own macros (expanded before
 * they are judged: PTRACE_ACCESS_CHECK, from the vendor header, is
 * ptrace_access_check; VMAC_OPEN is the renamed dentry_open).
 */
#include <linux/security.h>
#include <linux/sched.h>
#include <linux/fs.h>
#include "vmac_compat.h"

#define VMAC_OPEN		dentry_open

#define VMAC_LOG(fmt, ...)					\
	do {							\
		if (vmac_verbose)				\
			pr_info("vmac: " fmt, ##__VA_ARGS__);	\
	} while (0)

static int vmac_verbose;

static int vmac_ptrace(struct task_struct *child, unsigned int mode)
{
	VMAC_LOG("ptrace %d\n", task_pid_nr(child));
	return 0;
}

static int vmac_open(struct file *file, const struct cred *cred)
{
	VMAC_LOG("open\n");
	return 0;
}

static struct security_operations vmac_ops = {
	.name =			"vmac",
	.PTRACE_ACCESS_CHECK =	vmac_ptrace,
	.VMAC_OPEN =		vmac_open,
};

static __init int vmac_init(void)
{
	if (register_security(&vmac_ops))
		panic("vmac: cannot register\n");
	return 0;
}

security_initcall(vmac_init);

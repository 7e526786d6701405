// SPDX-License-Identifier: GPL-2.0
/*
 * uidopen - a 3.x-style security module written for lsmconv's port tests:
 * uid 1000 may not open files whose name starts with "lsmconv-secret"
 * (-EACCES).  It uses the dentry_open hook, which took the opener's cred
 * until 3.5 and was renamed file_open (without the cred) in 3.6.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/security.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/dcache.h>
#include <linux/string.h>
#include <linux/uidgid.h>

#define UIDOPEN_UID	1000
#define UIDOPEN_PREFIX	"lsmconv-secret"

static int uidopen_dentry_open(struct file *file, const struct cred *cred)
{
	const char *name = file->f_path.dentry->d_name.name;

	if (uid_eq(cred->fsuid, KUIDT_INIT(UIDOPEN_UID)) &&
	    !strncmp(name, UIDOPEN_PREFIX, sizeof(UIDOPEN_PREFIX) - 1))
		return -EACCES;
	return 0;
}

static struct security_operations uidopen_ops = {
	.name =			"uidopen",
	.dentry_open =		uidopen_dentry_open,
	.capable =		cap_capable,
	.syslog =		cap_syslog,
	.settime =		cap_settime,
	.vm_enough_memory =	cap_vm_enough_memory,
};

static __init int uidopen_init(void)
{
	if (!security_module_enable(&uidopen_ops))
		return 0;

	if (register_security(&uidopen_ops))
		panic("uidopen: kernel registration failed.\n");

	printk(KERN_INFO "uidopen: initialized\n");
	return 0;
}

security_initcall(uidopen_init);

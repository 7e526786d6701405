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
#include <linux/lsm_hooks.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/dcache.h>
#include <linux/string.h>
#include <linux/uidgid.h>

#define UIDOPEN_UID	1000
#define UIDOPEN_PREFIX	"lsmconv-secret"

static int uidopen_dentry_open(struct file *file)
{
	const struct cred *cred = file->f_cred;
	const char *name = file->f_path.dentry->d_name.name;

	if (uid_eq(cred->fsuid, KUIDT_INIT(UIDOPEN_UID)) &&
	    !strncmp(name, UIDOPEN_PREFIX, sizeof(UIDOPEN_PREFIX) - 1))
		return -EACCES;
	return 0;
}

static struct security_hook_list uidopen_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(file_open, uidopen_dentry_open),
};

static __init int uidopen_init(void)
{
	security_add_hooks(uidopen_hooks, ARRAY_SIZE(uidopen_hooks), "uidopen");

	printk(KERN_INFO "uidopen: initialized\n");
	return 0;
}

DEFINE_LSM(uidopen) = {
	.name = "uidopen",
	.init = uidopen_init,
};

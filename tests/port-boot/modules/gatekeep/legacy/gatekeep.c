// SPDX-License-Identifier: GPL-2.0
/*
 * gk - a security module in the style of Linux 3.x/4.0, written for
 * lsmconv's port tests (make port proves it on its own era's kernel, 4.0,
 * against its port on 6.1).  For the user with uid 1000:
 *  - no write access to a file owned by uid 2000 (inode_permission: -EACCES);
 *  - no exec of a file named lsmconv-noexec* (bprm_set_creds: -EACCES),
 *    after the capability computation it must chain, as 4.0 modules did;
 *  - no signal to a task named lsmconv-nokill* (task_kill, 4.0's signature
 *    with a u32 secid: -EPERM).
 * Its ops struct (gk_security_ops) and .name ("gklsm") are not the name it
 * is ported under (gatekeep, its directory): 4.0 boots it with
 * security=gklsm, the port must be called gatekeep everywhere on 6.1.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/security.h>
#include <linux/binfmts.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uidgid.h>

#define GK_UID		1000
#define GK_OWNER	2000
#define GK_NOEXEC	"lsmconv-noexec"
#define GK_NOKILL	"lsmconv-nokill"

static bool gk_restricted(void)
{
	return uid_eq(current_uid(), KUIDT_INIT(GK_UID));
}

static int gk_inode_permission(struct inode *inode, int mask)
{
	if ((mask & MAY_WRITE) && uid_eq(current_fsuid(), KUIDT_INIT(GK_UID)) &&
	    uid_eq(inode->i_uid, KUIDT_INIT(GK_OWNER)))
		return -EACCES;
	return 0;
}

static int gk_bprm_set_creds(struct linux_binprm *bprm)
{
	const char *name = bprm->file->f_path.dentry->d_name.name;
	int rc;

	rc = cap_bprm_set_creds(bprm);
	if (rc)
		return rc;

	if (gk_restricted() && !strncmp(name, GK_NOEXEC, sizeof(GK_NOEXEC) - 1))
		return -EACCES;
	return 0;
}

static int gk_task_kill(struct task_struct *p, struct siginfo *info,
			int sig, u32 secid)
{
	if (gk_restricted() && !strncmp(p->comm, GK_NOKILL, sizeof(GK_NOKILL) - 1))
		return -EPERM;
	return 0;
}

static struct security_operations gk_security_ops = {
	.name =			"gklsm",
	.inode_permission =	gk_inode_permission,
	.bprm_set_creds =	gk_bprm_set_creds,
	.task_kill =		gk_task_kill,
	.capable =		cap_capable,
	.settime =		cap_settime,
	.capget =		cap_capget,
	.capset =		cap_capset,
	.task_fix_setuid =	cap_task_fix_setuid,
};

static __init int gk_init(void)
{
	if (!security_module_enable(&gk_security_ops))
		return 0;

	if (register_security(&gk_security_ops))
		panic("gklsm: kernel registration failed.\n");

	printk(KERN_INFO "gklsm: initialized\n");
	return 0;
}

security_initcall(gk_init);

// SPDX-License-Identifier: GPL-2.0
/*
 * typeincl: hook functions that dereference argument types which the
 * target's security.h only declares (legacy security.h included
 * linux/binfmts.h and others itself).  Written for lsmconv's tests.
 */
#include <linux/security.h>
#include <linux/sched.h>

static int typeincl_bprm_check(struct linux_binprm *bprm)
{
	if (bprm->argc > 64)
		return -E2BIG;
	return 0;
}

/* m (a struct seq_file *, also only declared) is never dereferenced: no
 * include is needed for it */
static int typeincl_sb_show_options(struct seq_file *m, struct super_block *sb)
{
	return m && sb ? 0 : -EINVAL;
}

static int typeincl_msg_queue_msgsnd(struct kern_ipc_perm *msq, struct msg_msg *msg,
				     int msqflg)
{
	return msg->m_ts > 4096 ? -EPERM : 0;
}

static struct security_operations typeincl_ops = {
	.name =			"typeincl",
	.bprm_check_security =	typeincl_bprm_check,
	.sb_show_options =	typeincl_sb_show_options,
	.msg_queue_msgsnd =	typeincl_msg_queue_msgsnd,
};

static __init int typeincl_init(void)
{
	if (register_security(&typeincl_ops))
		panic("typeincl: cannot register\n");
	return 0;
}

security_initcall(typeincl_init);

// SPDX-License-Identifier: GPL-2.0
/*
 * typeincl: hook functions that dereference argument types which the
 * target's security.h only declares (legacy security.h included
 * linux/binfmts.h and others itself).  Written for lsmconv's tests.
 */
#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include <linux/sched.h>
#include <linux/binfmts.h>
#include <linux/msg.h>

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

static struct security_hook_list typeincl_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(bprm_check_security, typeincl_bprm_check),
	LSM_HOOK_INIT(sb_show_options, typeincl_sb_show_options),
	LSM_HOOK_INIT(msg_queue_msgsnd, typeincl_msg_queue_msgsnd),
};

static __init int typeincl_init(void)
{
	security_add_hooks(typeincl_hooks, ARRAY_SIZE(typeincl_hooks),
			   "typeincl");
	return 0;
}

DEFINE_LSM(typeincl) = {
	.name = "typeincl",
	.init = typeincl_init,
};

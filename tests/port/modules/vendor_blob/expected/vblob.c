// SPDX-License-Identifier: GPL-2.0
/*
 * vblob: a module with a vendor structure that has a `security` field of
 * its own.  Written for lsmconv's tests: a blob todo is only for the kernel
 * objects whose blobs the framework allocates (the target's struct
 * lsm_blob_sizes); the vendor field is the module's own data, and a
 * kernel structure that has no blob on the target is named as such.
 */
#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include <linux/cred.h>
#include <linux/binfmts.h>
#include <linux/slab.h>

struct vblob_ctx {
	void *security;
	int level;
};

static struct vblob_ctx vblob_default;

static int vblob_task_kill(struct task_struct *p, struct kernel_siginfo *info,
			   int sig, const struct cred *cred)
{
	struct vblob_ctx *ctx = &vblob_default;

	if (ctx->security == NULL)
		ctx->security = &vblob_default;
	return ctx->level > 2 && sig == 9 ? -EPERM : 0;
}

static int vblob_bprm_check(struct linux_binprm *bprm)
{
	return bprm->security ? 0 : -EPERM;
}

static struct security_hook_list vblob_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(task_kill, vblob_task_kill),
	LSM_HOOK_INIT(bprm_check_security, vblob_bprm_check),
};

static __init int vblob_init(void)
{
	security_add_hooks(vblob_hooks, ARRAY_SIZE(vblob_hooks), "vblob");
	return 0;
}

DEFINE_LSM(vblob) = {
	.name = "vblob",
	.init = vblob_init,
};

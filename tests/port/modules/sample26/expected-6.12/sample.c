/*
 * sample: a 2.6-era sample module (task_capable, ptrace_may_access,
 * mod_reg_security as a secondary module, capability.c defaults).
 */
#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include "../capability.c"

static int sample_task_capable(struct task_struct *tsk, const struct cred *cred,
			       int cap, int audit)
{
	return cap == 21 ? -EPERM : 0;
}

static int sample_ptrace_may_access(struct task_struct *child, unsigned int mode)
{
	return 0;
}

static struct security_hook_list sample_hooks[] __ro_after_init = {
	.task_capable = sample_task_capable,
	LSM_HOOK_INIT(ptrace_access_check, sample_ptrace_may_access),
};

/* lsmconv port: struct lsm_id added, .id = LSM_ID_UNDEF until you choose one */
static const struct lsm_id sample_lsmid = {
	.name = "sample",
	.id = LSM_ID_UNDEF,
};

static int __init sample_init(void)
{
	security_add_hooks(sample_hooks, ARRAY_SIZE(sample_hooks),
			   &sample_lsmid);
	return 0;
}
DEFINE_LSM(sample) = {
	.name = "sample",
	.init = sample_init,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * kyocera: a 3.x vendor module whose ops struct (kclsm_security_ops) and
 * .name ("kcsec") both differ from the name the port is given (--name
 * kyocera, the first .c file's name in tests/port): written for lsmconv's
 * tests.  The port must name the LSM kyocera everywhere the target uses
 * the name (DEFINE_LSM, security_add_hooks(), a struct lsm_id on 6.12).
 */
#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include <linux/sched.h>
#include <linux/string.h>

static int kc_task_kill_ok(struct task_struct *p)
{
	return strncmp(p->comm, "kc-guarded", 10) != 0;
}

static int kc_ptrace_access_check(struct task_struct *child, unsigned int mode)
{
	return kc_task_kill_ok(child) ? 0 : -EPERM;
}

static struct security_hook_list kcsec_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(ptrace_access_check, kc_ptrace_access_check),
};

/* lsmconv port: struct lsm_id added, .id = LSM_ID_UNDEF until you choose one */
static const struct lsm_id kyocera_lsmid = {
	.name = "kyocera",
	.id = LSM_ID_UNDEF,
};

static __init int kc_init(void)
{
	security_add_hooks(kcsec_hooks, ARRAY_SIZE(kcsec_hooks),
			   &kyocera_lsmid);
	printk(KERN_INFO "kcsec: registered\n");
	return 0;
}

DEFINE_LSM(kyocera) = {
	.name = "kyocera",
	.init = kc_init,
};

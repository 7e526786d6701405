// SPDX-License-Identifier: GPL-2.0
/* lsmconv test fixture: a legacy module that does not include lsm_hooks.h */
#include <linux/init.h>
#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_capable(const struct cred *cred, int cap)
{
	return 0;
}

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(capable, foo_capable),
};

static __init int foo_init(void)
{
	security_add_hooks(foo_hooks, ARRAY_SIZE(foo_hooks), "foo");
	return 0;
}

DEFINE_LSM(foo) = {
	.name = "foo",
	.init = foo_init,
};

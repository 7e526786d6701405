// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fixture for tests/coccicheck in the shape of 6.1's security/commoncap.c:
 * capability as a registered LSM (what cocci/rewind/10-commoncap.cocci
 * rewinds to a library of cap_* functions).
 */
#include <linux/lsm_hooks.h>

int cap_capable(const struct cred *cred, struct user_namespace *targ_ns,
		int cap, unsigned int opts)
{
	return 0;
}

int cap_settime(const struct timespec64 *ts, const struct timezone *tz)
{
	return 0;
}

static struct security_hook_list capability_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(capable, cap_capable),
	LSM_HOOK_INIT(settime, cap_settime),
};

static int __init capability_init(void)
{
	security_add_hooks(capability_hooks, ARRAY_SIZE(capability_hooks),
			   "capability");
	return 0;
}

DEFINE_LSM(capability) = {
	.name = "capability",
	.order = LSM_ORDER_FIRST,
	.init = capability_init,
};

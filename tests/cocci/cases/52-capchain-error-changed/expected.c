// SPDX-License-Identifier: GPL-2.0
/* the capability error is replaced by the module's own: kept */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_settime(const struct timespec64 *ts, const struct timezone *tz)
{
	if (cap_settime(ts, tz))
		return -EACCES;
	return foo_may_settime();
}

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(settime, foo_settime),
};

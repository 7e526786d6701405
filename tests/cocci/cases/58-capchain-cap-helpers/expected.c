// SPDX-License-Identifier: GPL-2.0
/* cap_* helpers that are not capability hooks: not chains, untouched */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_capset(struct cred *new, const struct cred *old,
		      const kernel_cap_t *effective,
		      const kernel_cap_t *inheritable,
		      const kernel_cap_t *permitted)
{
	if (!cap_issubset(*effective, *permitted))
		return -EPERM;
	if (cap_raised(old->cap_effective, CAP_SETPCAP))
		return 0;
	return foo_may_setcap(new);
}

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(capset, foo_capset),
};

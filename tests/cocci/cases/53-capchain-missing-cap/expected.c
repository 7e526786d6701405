// SPDX-License-Identifier: GPL-2.0
/* a capability function the target no longer has */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_bprm_secureexec(struct linux_binprm *bprm)
{
	int rc;

	rc = cap_bprm_secureexec(bprm);
	if (rc)
		return rc;
	return foo_bprm_unsafe(bprm);
}

static int foo_bprm_check_security(struct linux_binprm *bprm)
{
	return foo_bprm_secureexec(bprm);
}

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(bprm_check_security, foo_bprm_check_security),
	LSM_HOOK_INIT(bprm_secureexec, foo_bprm_secureexec),
};

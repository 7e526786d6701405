// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fixture for tests/coccicheck in the shape of 6.1's security/security.c:
 * wrappers that walk the hook lists (cocci/rewind/20-security-c.cocci and
 * 21-security-c-unused.cocci rewind them to one security_ops vector).
 */
#include <linux/lsm_hooks.h>

struct security_hook_heads security_hook_heads __lsm_ro_after_init;

int security_capable(const struct cred *cred, struct user_namespace *ns,
		     int cap, unsigned int opts)
{
	return call_int_hook(capable, 0, cred, ns, cap, opts);
}

void security_bprm_committed_creds(struct linux_binprm *bprm)
{
	call_void_hook(bprm_committed_creds, bprm);
}

int security_settime64(const struct timespec64 *ts, const struct timezone *tz)
{
	int rc;

	rc = call_int_hook(settime, 0, ts, tz);
	return rc;
}

int security_inode_getsecctx(struct inode *inode, void **ctx, u32 *ctxlen)
{
	struct security_hook_list *hp;
	int rc;

	rc = call_int_hook(inode_getsecctx, -EOPNOTSUPP, inode, ctx, ctxlen);
	return rc;
}

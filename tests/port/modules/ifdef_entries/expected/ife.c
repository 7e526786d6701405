// SPDX-License-Identifier: GPL-2.0
/* ife: entries under per-entry #ifdefs. */
#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include <linux/net.h>

static int ife_file_permission(struct file *file, int mask)
{
	return 0;
}

#ifdef CONFIG_SECURITY_NETWORK
static int ife_socket_create(int family, int type, int protocol, int kern)
{
	return family == 40 ? -EACCES : 0;
}
#endif

#ifdef CONFIG_SECURITY_PATH
static int ife_path_unlink(const struct path *dir, struct dentry *dentry)
{
	return 0;
}
#endif

static struct security_hook_list ife_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(file_permission, ife_file_permission),
#ifdef CONFIG_SECURITY_NETWORK
	LSM_HOOK_INIT(socket_create, ife_socket_create),
#endif
#ifdef CONFIG_SECURITY_PATH
	LSM_HOOK_INIT(path_unlink, ife_path_unlink),
#endif
};

static __init int ife_init(void)
{
	security_add_hooks(ife_hooks, ARRAY_SIZE(ife_hooks), "ife");
	return 0;
}

DEFINE_LSM(ife) = {
	.name = "ife",
	.init = ife_init,
};

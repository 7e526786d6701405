// SPDX-License-Identifier: GPL-2.0
/* ife: entries under per-entry #ifdefs. */
#include <linux/security.h>
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

static struct security_operations ife_ops = {
	.name = "ife",
	.file_permission = ife_file_permission,
#ifdef CONFIG_SECURITY_NETWORK
	.socket_create = ife_socket_create,
#endif
#ifdef CONFIG_SECURITY_PATH
	.path_unlink = ife_path_unlink,
#endif
	.ptrace_traceme = cap_ptrace_traceme,
};

static __init int ife_init(void)
{
	if (!security_module_enable(&ife_ops))
		return 0;
	if (register_security(&ife_ops))
		panic("ife: register_security failed\n");
	return 0;
}

security_initcall(ife_init);

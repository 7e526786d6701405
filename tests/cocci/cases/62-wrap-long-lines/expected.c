// SPDX-License-Identifier: GPL-2.0
/* converted entries and registrations longer than 80 columns are wrapped
 * kernel style; a long line the converter did not write stays as it is */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int verylongmodulename_socket_getpeersec_stream(struct socket *sock, sockptr_t optval, sockptr_t optlen, unsigned int len)
{
	return 0;
}

static struct security_hook_list verylongmodulename_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(socket_getpeersec_stream,
		      verylongmodulename_socket_getpeersec_stream),
	LSM_HOOK_INIT(socket_getpeersec_dgram,
		      verylongmodulename_socket_getpeersec_dgram),
	LSM_HOOK_INIT(ptrace_traceme, verylongmodulename_ptrace_traceme),
#ifdef CONFIG_SECURITY_INFINIBAND
	LSM_HOOK_INIT(ib_endport_manage_subnet,
		      verylongmodulename_ib_endport_manage_subnet),
#endif
};

static __init int verylongmodulename_init(void)
{
	if (verylongmodulename_enabled) {
		security_add_hooks(verylongmodulename_hooks,
				   ARRAY_SIZE(verylongmodulename_hooks),
				   "verylongmodulename");
	}
	return 0;
}

void verylongmodulename_disable(void)
{
	security_delete_hooks(verylongmodulename_hooks,
			      ARRAY_SIZE(verylongmodulename_hooks));
}

// SPDX-License-Identifier: GPL-2.0
/* converted entries and registrations longer than 80 columns are wrapped
 * kernel style; a long line the converter did not write stays as it is */

#include <linux/security.h>

static int verylongmodulename_socket_getpeersec_stream(struct socket *sock, sockptr_t optval, sockptr_t optlen, unsigned int len)
{
	return 0;
}

static struct security_operations verylongmodulename_ops = {
	.name =				"verylongmodulename",
	.socket_getpeersec_stream =	verylongmodulename_socket_getpeersec_stream,
	.socket_getpeersec_dgram =	verylongmodulename_socket_getpeersec_dgram,
	.ptrace_traceme =		verylongmodulename_ptrace_traceme,
#ifdef CONFIG_SECURITY_INFINIBAND
	.ib_endport_manage_subnet =	verylongmodulename_ib_endport_manage_subnet,
#endif
};

static __init int verylongmodulename_init(void)
{
	if (verylongmodulename_enabled) {
		if (register_security(&verylongmodulename_ops))
			panic("verylongmodulename: Unable to register with kernel.\n");
	}
	return 0;
}

void verylongmodulename_disable(void)
{
	reset_security_ops();
}

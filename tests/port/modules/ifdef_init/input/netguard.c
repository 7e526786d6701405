// SPDX-License-Identifier: GPL-2.0
/*
 * netguard: an ops table under #ifdef CONFIG_SECURITY_NETWORK that nothing
 * in the module registers.  Written for lsmconv's tests: the init and
 * DEFINE_LSM the port writes use the hook list, so they must be compiled
 * under the same condition (outside it, they name an undeclared list when
 * the option is off).
 */
#include <linux/security.h>
#include <linux/net.h>

#ifdef CONFIG_SECURITY_NETWORK
static int netguard_socket_create(int family, int type, int protocol, int kern)
{
	return family == 40 ? -EAFNOSUPPORT : 0;
}

static struct security_operations netguard_ops = {
	.name =			"netguard",
	.socket_create =	netguard_socket_create,
};
#endif /* CONFIG_SECURITY_NETWORK */

int netguard_version = 1;

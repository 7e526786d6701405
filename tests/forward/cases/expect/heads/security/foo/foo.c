// SPDX-License-Identifier: GPL-2.0
/* lsmconv test fixture: a legacy module that does not include lsm_hooks.h */
#include <linux/init.h>
#include <linux/lsm_hooks.h>

static int foo_capable(const struct cred *cred, int cap)
{
	return 0;
}

static struct security_operations foo_ops = {
	.name =		"foo",
	.capable =	foo_capable,
};

static __init int foo_init(void)
{
	if (!security_module_enable(&foo_ops))
		return 0;
	if (register_security(&foo_ops))
		panic("foo: register failed\n");
	return 0;
}

security_initcall(foo_init);

// SPDX-License-Identifier: GPL-2.0
/* opsonly: nothing but legacy ops manipulation. */
#include <linux/security.h>

extern struct security_operations *security_ops;
extern struct security_operations default_security_ops;
static struct security_operations *opsonly_saved;

void opsonly_take_over(struct security_operations *ops)
{
	opsonly_saved = security_ops;
	security_ops = ops;
}

void opsonly_give_back(void)
{
	reset_security_ops();
	security_ops = opsonly_saved ? opsonly_saved : &default_security_ops;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* lsmconv test fixture: commoncap.c */
#include <linux/lsm_hooks.h>

int cap_capable(const struct cred *cred, int cap)
{
	return 0;
}

int cap_task_prctl(int option, unsigned long arg2)
{
	return -ENOSYS;
}


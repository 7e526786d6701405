// SPDX-License-Identifier: GPL-2.0
/* the legacy framework file: wrappers get the target's calling macros */

#include <linux/security.h>

static struct security_operations *security_ops;

int __init register_security(struct security_operations *ops)
{
	if (security_ops != &default_security_ops)
		return -EAGAIN;
	security_ops = ops;
	return 0;
}

/*
 * Hook list operation macros.
 *
 * call_void_hook:
 *	This is a hook that does not return a value.
 *
 * call_int_hook:
 *	This is a hook that returns a value.
 */

#define call_void_hook(FUNC, ...)				\
	do {							\
		struct security_hook_list *P;			\
								\
		hlist_for_each_entry(P, &security_hook_heads.FUNC, list) \
			P->hook.FUNC(__VA_ARGS__);		\
	} while (0)

#define call_int_hook(FUNC, IRC, ...) ({			\
	int RC = IRC;						\
	do {							\
		struct security_hook_list *P;			\
								\
		hlist_for_each_entry(P, &security_hook_heads.FUNC, list) { \
			RC = P->hook.FUNC(__VA_ARGS__);		\
			if (RC != 0)				\
				break;				\
		}						\
	} while (0);						\
	RC;							\
})

/* Security operations */

int security_syslog(int type)
{
	return call_int_hook(syslog, 0, type);
}

void security_task_free(struct task_struct *task)
{
	call_void_hook(task_free, task);
}

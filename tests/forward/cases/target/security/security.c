// SPDX-License-Identifier: GPL-2.0-or-later
/* lsmconv test fixture: the stacked security.c */
#include <linux/lsm_hooks.h>

static const char *const names[] = {
	"a",
};

struct security_hook_heads security_hook_heads __lsm_ro_after_init;
static struct kmem_cache *lsm_file_cache;

int __init early_security_init(void)
{
	struct lsm_info *lsm;

#define LSM_HOOK(RET, DEFAULT, NAME, ...) \
	INIT_HLIST_HEAD(&security_hook_heads.NAME);
#include "linux/lsm_hook_defs.h"
#undef LSM_HOOK

	for (lsm = __start; lsm < __end; lsm++)
		prepare_lsm(lsm);
	return 0;
}

static int lsm_append(const char *new, char **result)
{
	return 0;
}

/**
 * security_add_hooks - Add a modules hooks to the hook lists.
 */
void __init security_add_hooks(struct security_hook_list *hooks, int count,
				const char *lsm)
{
	int i;

	for (i = 0; i < count; i++) {
		hooks[i].lsm = lsm;
		hlist_add_tail_rcu(&hooks[i].list, hooks[i].head);
	}
	if (lsm_append(lsm, &lsm_names) < 0)
		panic("%s - Cannot get early memory.\n", __func__);
}

int call_blocking_lsm_notifier(enum lsm_event event, void *data)
{
	return 0;
}

/*
 * Hook list operation macros.
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

int security_capable(const struct cred *cred, int cap)
{
	return call_int_hook(capable, 0, cred, cap);
}

void security_task_free(struct task_struct *task)
{
	call_void_hook(task_free, task);
}

int security_task_prctl(int option, unsigned long arg2)
{
	int thisrc;
	int rc = LSM_RET_DEFAULT(task_prctl);
	struct security_hook_list *hp;

	hlist_for_each_entry(hp, &security_hook_heads.task_prctl, list) {
		thisrc = hp->hook.task_prctl(option, arg2);
		if (thisrc != LSM_RET_DEFAULT(task_prctl)) {
			rc = thisrc;
			if (thisrc != 0)
				break;
		}
	}
	return rc;
}

int security_inode_init_security(struct inode *inode,
				 const initxattrs initxattrs)
{
	const char *name;
	void *value;
	int ret;

	if (!initxattrs)
		return call_int_hook(inode_init_security, -EOPNOTSUPP, inode,
				     NULL, NULL);
	ret = call_int_hook(inode_init_security, -EOPNOTSUPP, inode, &name,
			    &value);
	return ret;
}

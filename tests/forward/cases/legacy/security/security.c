// SPDX-License-Identifier: GPL-2.0-or-later
/* lsmconv test fixture: the stacked security.c */
#include <linux/lsm_hooks.h>

static const char *const names[] = {
	"a",
};

static struct security_operations default_security_ops = {
	.name = "default",
};

static struct security_operations *security_ops = &default_security_ops;
static struct kmem_cache *lsm_file_cache;

int __init early_security_init(void)
{
	struct lsm_info *lsm;

	security_fixup_ops(&default_security_ops);
	for (lsm = __start; lsm < __end; lsm++)
		prepare_lsm(lsm);
	return 0;
}

static int lsm_append(const char *new, char **result)
{
	return 0;
}

static inline int __init verify(struct security_operations *ops)
{
	/* verify the security_operations structure exists */
	if (!ops)
		return -EINVAL;
	security_fixup_ops(ops);
	return 0;
}

/* Save user chosen LSM */
static char chosen_lsm[SECURITY_NAME_MAX + 1]__initdata;

/**
 * security_module_enable - Load given security module on boot ?
 */
int __init security_module_enable(struct security_operations *ops)
{
	if (!chosen_lsm[0])
		strscpy(chosen_lsm, ops->name, sizeof(chosen_lsm));
	return !strcmp(ops->name, chosen_lsm);
}

/**
 * register_security - registers a security framework with the kernel
 */
int __init register_security(struct security_operations *ops)
{
	if (verify(ops))
		return -EINVAL;
	if (security_ops != &default_security_ops)
		return -EAGAIN;
	security_ops = ops;
	if (lsm_append(ops->name, &lsm_names) < 0)
		panic("%s - Cannot get early memory.\n", __func__);
	return 0;
}

#ifdef CONFIG_SECURITY_SELINUX_DISABLE
void reset_security_ops(void)
{
	security_ops = &default_security_ops;
}
#endif

int call_blocking_lsm_notifier(enum lsm_event event, void *data)
{
	return 0;
}

/* Security operations */

int security_capable(const struct cred *cred, int cap)
{
	return security_ops->capable(cred, cap);
}

void security_task_free(struct task_struct *task)
{
	security_ops->task_free(task);
}

int security_task_prctl(int option, unsigned long arg2)
{
#ifdef CONFIG_SECURITY_YAMA_STACKED
	int rc;

	rc = yama_task_prctl(option, arg2);
	if (rc != -ENOSYS)
		return rc;
#endif

	return security_ops->task_prctl(option, arg2);
}

int security_inode_init_security(struct inode *inode,
				 const initxattrs initxattrs)
{
	const char *name;
	void *value;
	int ret;

	if (!initxattrs)
		return security_ops->inode_init_security(inode, NULL, NULL);
	ret = security_ops->inode_init_security(inode, &name, &value);
	return ret;
}

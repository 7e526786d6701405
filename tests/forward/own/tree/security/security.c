/*
 * Security plug functions (lsmconv test fixture: the shape of 4.0's)
 */

#include <linux/init.h>
#include <linux/security.h>

/* Boot-time LSM user choice */
static __initdata char chosen_lsm[SECURITY_NAME_MAX + 1] = "foo";

static struct security_operations *security_ops;
static struct security_operations default_security_ops = {
	.name	= "default",
};

static inline int __init verify(struct security_operations *ops)
{
	if (!ops)
		return -EINVAL;
	security_fixup_ops(ops);
	return 0;
}

int __init security_init(void)
{
	printk(KERN_INFO "Security Framework initialized\n");

	security_fixup_ops(&default_security_ops);
	security_ops = &default_security_ops;
	do_security_initcalls();

	return 0;
}

void reset_security_ops(void)
{
	security_ops = &default_security_ops;
}

/**
 * security_module_enable - Load given security module on boot ?
 * @ops: a pointer to the struct security_operations that is to be checked.
 */
int __init security_module_enable(struct security_operations *ops)
{
	return !strcmp(ops->name, chosen_lsm);
}

int __init register_security(struct security_operations *ops)
{
	if (verify(ops))
		return -EINVAL;

	if (security_ops != &default_security_ops)
		return -EAGAIN;

	security_ops = ops;

	return 0;
}

/* Security operations */

int security_capable(const struct cred *cred, int cap)
{
	return security_ops->capable(cred, cap);
}

int security_ptrace_access_check(struct task_struct *child, unsigned int mode)
{
#ifdef CONFIG_SECURITY_BAR_STACKED
	int rc;
	rc = bar_ptrace_access_check(child, mode);
	if (rc)
		return rc;
#endif
	return security_ops->ptrace_access_check(child, mode);
}

int security_file_open(struct file *file, const struct cred *cred)
{
	return security_ops->file_open(file, cred);
}

void security_file_free(struct file *file)
{
	security_ops->file_free(file);
}

int security_inode_getsecurity(const char *name, void **buffer)
{
	return security_ops->inode_getsecurity(name, buffer);
}

void security_task_getsecid(struct task_struct *p, u32 *secid)
{
	security_ops->task_getsecid(p, secid);
}

int security_task_prctl(int option, unsigned long arg2)
{
#ifdef CONFIG_SECURITY_BAR_STACKED
	int rc;
	rc = bar_task_prctl(option, arg2);
	if (rc != -ENOSYS)
		return rc;
#endif
	return security_ops->task_prctl(option, arg2);
}

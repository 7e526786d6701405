/*
 * Security plug functions (lsmconv test fixture: the shape of 4.0's)
 */

#include <linux/init.h>
#include <linux/lsm_hooks.h>

/* Boot-time LSM user choice */
static __initdata char chosen_lsm[SECURITY_NAME_MAX + 1] = "foo";

int __init security_init(void)
{
	printk(KERN_INFO "Security Framework initialized\n");

	capability_add_hooks();
#ifdef CONFIG_SECURITY_BAR_STACKED
	bar_add_hooks();
#endif
	do_security_initcalls();

	return 0;
}

/**
 * security_module_enable - Load given security module on boot ?
 * @module: the name of the module
 */
int __init security_module_enable(const char *module)
{
	return !strcmp(module, chosen_lsm);
}

/*
 * Hook list operation macros.
 *
 * call_void_hook:
 *	This is a hook that does not return a value.
 *
 * call_int_hook:
 *	This is a hook that returns a value.  IRC is the answer when
 *	no module supplies the hook; it is evaluated only then.
 */

#define call_void_hook(FUNC, ...)				\
	do {							\
		struct security_hook_list *P;			\
								\
		list_for_each_entry(P, &security_hook_heads.FUNC, list) \
			P->hook.FUNC(__VA_ARGS__);		\
	} while (0)

#define call_int_hook(FUNC, IRC, ...) ({			\
	int RC = 0;						\
	bool HOOKED = false;					\
	do {							\
		struct security_hook_list *P;			\
								\
		list_for_each_entry(P, &security_hook_heads.FUNC, list) { \
			HOOKED = true;				\
			RC = P->hook.FUNC(__VA_ARGS__);		\
			if (RC != 0)				\
				break;				\
		}						\
	} while (0);						\
	HOOKED ? RC : (IRC);					\
})

/* Security operations */

int security_capable(const struct cred *cred, int cap)
{
	return call_int_hook(capable, 0, cred, cap);
}

int security_ptrace_access_check(struct task_struct *child, unsigned int mode)
{
	return call_int_hook(ptrace_access_check, 0, child, mode);
}

int security_file_open(struct file *file, const struct cred *cred)
{
	return call_int_hook(file_open, 0, file, cred);
}

void security_file_free(struct file *file)
{
	call_void_hook(file_free, file);
}

int security_inode_getsecurity(const char *name, void **buffer)
{
	return call_int_hook(inode_getsecurity, -EOPNOTSUPP, name, buffer);
}

void security_task_getsecid(struct task_struct *p, u32 *secid)
{
	*secid = 0;
	call_void_hook(task_getsecid, p, secid);
}

int security_task_prctl(int option, unsigned long arg2)
{
	int thisrc;
	int rc = -ENOSYS;
	struct security_hook_list *hp;

	list_for_each_entry(hp, &security_hook_heads.task_prctl, list) {
		thisrc = hp->hook.task_prctl(option, arg2);
		if (thisrc != -ENOSYS) {
			rc = thisrc;
			if (thisrc != 0)
				break;
		}
	}
	return rc;
}

struct security_hook_heads security_hook_heads = {
	.capable =
		LIST_HEAD_INIT(security_hook_heads.capable),
	.ptrace_access_check =
		LIST_HEAD_INIT(security_hook_heads.ptrace_access_check),
	.file_open =
		LIST_HEAD_INIT(security_hook_heads.file_open),
	.file_free =
		LIST_HEAD_INIT(security_hook_heads.file_free),
	.inode_getsecurity =
		LIST_HEAD_INIT(security_hook_heads.inode_getsecurity),
	.task_getsecid =
		LIST_HEAD_INIT(security_hook_heads.task_getsecid),
	.task_prctl =
		LIST_HEAD_INIT(security_hook_heads.task_prctl),
#ifdef CONFIG_SECURITY_PATH
	.path_unlink =
		LIST_HEAD_INIT(security_hook_heads.path_unlink),
#endif	/* CONFIG_SECURITY_PATH */
};

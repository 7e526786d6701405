/*
 *  Capabilities Linux Security Module (lsmconv test fixture)
 */

#include <linux/security.h>

static int cap_file_open(struct file *file, const struct cred *cred)
{
	return 0;
}

static void cap_file_free(struct file *file)
{
}

static int cap_inode_getsecurity(const char *name, void **buffer)
{
	return -EOPNOTSUPP;
}

static void cap_task_getsecid(struct task_struct *p, u32 *secid)
{
	*secid = 0;
}

#ifdef CONFIG_SECURITY_PATH
static int cap_path_unlink(const char *dir, int dentry)
{
	return 0;
}
#endif

#define set_to_cap_if_null(ops, function)				\
	do {								\
		if (!ops->function) {					\
			ops->function = cap_##function;			\
		}							\
	} while (0)

void __init security_fixup_ops(struct security_operations *ops)
{
	set_to_cap_if_null(ops, capable);
	set_to_cap_if_null(ops, ptrace_access_check);
	set_to_cap_if_null(ops, file_open);
	set_to_cap_if_null(ops, file_free);
	set_to_cap_if_null(ops, inode_getsecurity);
	set_to_cap_if_null(ops, task_getsecid);
	set_to_cap_if_null(ops, task_prctl);
#ifdef CONFIG_SECURITY_PATH
	set_to_cap_if_null(ops, path_unlink);
#endif
}

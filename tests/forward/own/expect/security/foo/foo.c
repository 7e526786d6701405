/* foo: a major module (lsmconv test fixture) */

#include <linux/lsm_hooks.h>

static int foo_capable(const struct cred *cred, int cap)
{
	return cap == 7 ? -EPERM : 0;
}

static int foo_file_open(struct file *file, const struct cred *cred)
{
	return 0;
}

static struct security_hook_list foo_hooks[] = {
	LSM_HOOK_INIT(capable, foo_capable),
	LSM_HOOK_INIT(file_open, foo_file_open),
};

static __init int foo_init(void)
{
	if (!security_module_enable("foo"))
		return 0;

	security_add_hooks(foo_hooks, ARRAY_SIZE(foo_hooks));

	return 0;
}

security_initcall(foo_init);

/* foo: a major module (lsmconv test fixture) */

#include <linux/security.h>

static int foo_capable(const struct cred *cred, int cap)
{
	int rc;

	rc = cap_capable(cred, cap);
	if (rc)
		return rc;
	return cap == 7 ? -EPERM : 0;
}

static int foo_file_open(struct file *file, const struct cred *cred)
{
	return 0;
}

static struct security_operations foo_ops = {
	.name =			"foo",
	.capable =		foo_capable,
	.file_open =		foo_file_open,
};

static __init int foo_init(void)
{
	if (!security_module_enable(&foo_ops))
		return 0;

	if (register_security(&foo_ops))
		panic("foo: kernel registration failed.\n");

	return 0;
}

security_initcall(foo_init);

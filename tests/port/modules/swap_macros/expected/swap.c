// SPDX-License-Identifier: GPL-2.0
/* swap: a loadable module that swaps hooks at run time through macros. */
#include <linux/module.h>
#include <linux/security.h>

extern struct security_operations *security_ops;
static struct security_operations *swap_saved;
static int (*old_file_open)(struct file *file);

#define SWAP_HOOK(ops, h) \
	do { old_##h = (ops)->h; (ops)->h = swap_##h; } while (0)
#define RESTORE_HOOK(ops, h) ((ops)->h = old_##h)

static int swap_file_open(struct file *file)
{
	return old_file_open ? old_file_open(file) : 0;
}

static int __init swap_load(void)
{
	swap_saved = security_ops;
	SWAP_HOOK(swap_saved, file_open);
	return 0;
}

static void __exit swap_unload(void)
{
	RESTORE_HOOK(swap_saved, file_open);
}

module_init(swap_load);
module_exit(swap_unload);
MODULE_LICENSE("GPL");

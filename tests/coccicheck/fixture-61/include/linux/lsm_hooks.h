/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fixture for tests/coccicheck in the shape of 6.1's
 * include/linux/lsm_hooks.h (cocci/rewind/60-lsm-hooks-h.cocci).
 */
#ifndef __LINUX_LSM_HOOKS_H
#define __LINUX_LSM_HOOKS_H

struct security_hook_list {
	struct hlist_node list;
	struct hlist_head *head;
	union security_list_options hook;
	const char *lsm;
} __randomize_layout;

extern struct security_hook_heads security_hook_heads;
extern char *lsm_names;

extern void security_add_hooks(struct security_hook_list *hooks, int count,
				const char *lsm);

#endif /* ! __LINUX_LSM_HOOKS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmverify - LSM behaviour suite run inside a QEMU guest.
 *
 * Every decision is printed as one line
 *	case <lsm>.<name> <allow|deny> <errno-name or 0>
 * so that the traces of two kernels can be compared line by line.
 */
#ifndef LSMVERIFY_H
#define LSMVERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Where stage.sh puts the data files in the guest. */
#define LV_DATA		"/lsmverify"
#define LV_RUN		"/lsmverify-run"

#define LV_SKIP		77

/* Exit codes of a child that could not even try its operation. */
#define LV_CHILD_SETUP	250
#define LV_CHILD_USAGE	251

/* An operation: returns 0 if the kernel allowed it, else -errno. */
typedef int (*lv_op_fn)(const char *arg);

struct lv_op {
	const char *name;
	lv_op_fn fn;
};

/* ops.c */
lv_op_fn lv_find_op(const char *name);
int lv_run_op(const char *name, const char *arg);

/* common.c */
extern const char *lv_lsm;	/* the suite being run, e.g. "selinux" */
extern int lv_failures;		/* setup failures (not case mismatches) */

bool lv_guest_guard(void);
bool lv_lsm_active(const char *name);
int lv_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lv_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int lv_setup_fail(const char *what, int err);

void lv_case(const char *name, int result);
int lv_finish(void);

int lv_write_file(const char *path, const char *buf, size_t len);
int lv_write_str(const char *path, const char *s);
int lv_read_file(const char *path, char *buf, size_t size);
int lv_copy_file(const char *from, const char *to, mode_t mode);
int lv_mkdir_p(const char *path, mode_t mode);
int lv_mount_tmpfs(const char *dir);
int lv_ensure_mount(const char *dir, const char *fstype);
int lv_make_file(const char *path, const char *content, mode_t mode);
int lv_self_exe(char *buf, size_t size);
char *lv_slurp(const char *path, size_t *len);
int lv_copy_self(const char *path);
int lv_abc_files(const char *dir, const char *exe);
int lv_set_attr(const char *which, const char *value);

/* Child helpers: return 0 or -errno, as the operation did. */
typedef int (*lv_prep_fn)(const void *ctx);
int lv_child(lv_prep_fn prep, const void *ctx, const char *op,
	     const char *arg);
int lv_child_exec(lv_prep_fn prep, const void *ctx, const char *exe,
		  const char *op, const char *arg);
int lv_wait_result(pid_t pid);

int lv_drop_caps(const int *keep, int nkeep);
int lv_become_user(uid_t uid);

/* The suites. */
int lv_suite_capability(void);
int lv_suite_yama(void);
int lv_suite_selinux(void);
int lv_suite_smack(void);
int lv_suite_tomoyo(void);
int lv_suite_apparmor(void);
int lv_tomoyo_loader(void);

#endif /* LSMVERIFY_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * lsmverify - shared helpers: the guest guard, trace lines, expectations,
 * child processes and small file utilities.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "lsmverify.h"

const char *lv_lsm = "none";
int lv_failures;

/* Result codes beyond errno values. */
#define LV_RES_SETUP	(-1000)
#define LV_RES_EXEC	(-1100)	/* -1100 - errno: the exec itself failed */
#define LV_RES_SIG	(-2000)	/* -2000 - signal */

#define LV_MAX_CASES	256

struct lv_case_rec {
	char name[96];
	char verdict[48];
};

static struct lv_case_rec cases[LV_MAX_CASES];
static int ncases;

/* ------------------------------------------------------------------ */
/* Guest guard                                                          */

static bool cmdline_has_lsmtest(void)
{
	char buf[4096];
	char *tok, *save;
	int n = lv_read_file("/proc/cmdline", buf, sizeof(buf));

	if (n < 0)
		return false;
	for (tok = strtok_r(buf, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save))
		if (!strncmp(tok, "lsmtest=", 8))
			return true;
	return false;
}

/*
 * PID 1 is the harness's init: "/init" (stage 1) or, after its switch_root,
 * "/bin/sh /sbin/lsmtest-init" (stage 2).  Any argument naming one of them
 * counts.
 */
static bool pid1_is_lsmtest_init(void)
{
	char buf[512];
	int n = lv_read_file("/proc/1/cmdline", buf, sizeof(buf));
	int i;

	if (n <= 0)
		return false;
	for (i = 0; i < n; i += strlen(buf + i) + 1) {
		const char *arg = buf + i;
		const char *base = strrchr(arg, '/');

		if (!strcmp(arg, "/init") ||
		    (base && !strcmp(base, "/lsmtest-init")))
			return true;
	}
	return false;
}

/*
 * Loaders write policies into the running kernel.  They must only ever do
 * that in the throw-away QEMU guest: PID 1 is the harness's init and the
 * kernel command line carries the harness's lsmtest= parameter.
 */
bool lv_guest_guard(void)
{
	return cmdline_has_lsmtest() && pid1_is_lsmtest_init();
}

/*
 * Kernels before 4.15 have no /sys/kernel/security/lsm (legacy baselines):
 * there, an LSM is active if its interface exists.
 */
static bool lsm_interface_present(const char *name)
{
	if (!strcmp(name, "selinux"))
		return !lv_ensure_mount("/sys/fs/selinux", "selinuxfs") &&
		       !access("/sys/fs/selinux/enforce", F_OK);
	if (!strcmp(name, "smack"))
		return !lv_ensure_mount("/sys/fs/smackfs", "smackfs") &&
		       !access("/sys/fs/smackfs/load2", F_OK);
	lv_ensure_mount("/sys/kernel/security", "securityfs");
	if (!strcmp(name, "apparmor"))
		return !access("/sys/kernel/security/apparmor/.load", F_OK);
	if (!strcmp(name, "tomoyo"))
		return !access("/sys/kernel/security/tomoyo/self_domain", F_OK);
	if (!strcmp(name, "yama"))
		return !access("/proc/sys/kernel/yama/ptrace_scope", F_OK);
	return false;
}

bool lv_lsm_active(const char *name)
{
	char buf[512];
	char *tok, *save;
	int n = lv_read_file("/sys/kernel/security/lsm", buf, sizeof(buf));

	if (n == -ENOENT)
		return lsm_interface_present(name);
	if (n < 0)
		return false;
	for (tok = strtok_r(buf, ",\n", &save); tok;
	     tok = strtok_r(NULL, ",\n", &save))
		if (!strcmp(tok, name))
			return true;
	/*
	 * A legacy kernel stacks Yama by hand (CONFIG_SECURITY_YAMA_STACKED):
	 * it runs without being in the list.  Its sysctl is registered only
	 * by yama_init(), so it is a reliable sign in every kernel.
	 */
	if (!strcmp(name, "yama"))
		return lsm_interface_present(name);
	return false;
}

int lv_skip(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	fflush(stdout);
	if (write(STDOUT_FILENO, buf, n) < 0)
		return LV_SKIP;
	return LV_SKIP;
}

void lv_note(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	strcpy(buf, "# ");
	va_start(ap, fmt);
	n = vsnprintf(buf + 2, sizeof(buf) - 3, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	n += 2;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(STDOUT_FILENO, buf, n) < 0)
		return;
}

int lv_setup_fail(const char *what, int err)
{
	lv_note("%s: setup failed: %s: %s", lv_lsm, what,
		err ? strerror(err < 0 ? -err : err) : "unexpected state");
	lv_failures++;
	return err ? err : -EINVAL;
}

/* ------------------------------------------------------------------ */
/* Trace lines                                                          */

static void verdict_of(int result, char *buf, size_t size)
{
	const char *name;

	if (result == 0) {
		snprintf(buf, size, "allow 0");
	} else if (result == LV_RES_SETUP) {
		snprintf(buf, size, "deny SETUP");
	} else if (result <= LV_RES_SIG) {
		snprintf(buf, size, "deny SIG%s",
			 sigabbrev_np(LV_RES_SIG - result) ?: "UNKNOWN");
	} else if (result <= LV_RES_EXEC) {
		name = strerrorname_np(LV_RES_EXEC - result);
		snprintf(buf, size, "deny EXEC-%s", name ?: "UNKNOWN");
	} else {
		name = strerrorname_np(-result);
		if (name)
			snprintf(buf, size, "deny %s", name);
		else
			snprintf(buf, size, "deny E%d", -result);
	}
}

void lv_case(const char *name, int result)
{
	char line[192];
	int n;

	if (ncases >= LV_MAX_CASES) {
		lv_setup_fail("too many cases", -ENOSPC);
		return;
	}
	snprintf(cases[ncases].name, sizeof(cases[ncases].name), "%s.%s",
		 lv_lsm, name);
	verdict_of(result, cases[ncases].verdict,
		   sizeof(cases[ncases].verdict));
	/* One write per line so that nothing else can split it. */
	n = snprintf(line, sizeof(line), "case %s %s\n", cases[ncases].name,
		     cases[ncases].verdict);
	if (write(STDOUT_FILENO, line, n) < 0)
		lv_failures++;
	ncases++;
}

/*
 * Compare what was printed with LV_DATA/expect/<lsm>.txt: every expected
 * case must have been printed with the same verdict, and nothing else.
 */
int lv_finish(void)
{
	char path[256], line[256];
	bool seen[LV_MAX_CASES] = { false };
	int mismatches = 0, expected = 0, i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/expect/%s.txt", LV_DATA, lv_lsm);
	f = fopen(path, "re");
	if (!f) {
		lv_note("%s: cannot open %s: %m", lv_lsm, path);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		char name[96], verdict[48], how[16], err[32];

		if (sscanf(line, "case %95s %15s %31s", name, how, err) != 3)
			continue;
		snprintf(verdict, sizeof(verdict), "%s %s", how, err);
		expected++;
		for (i = 0; i < ncases; i++)
			if (!strcmp(cases[i].name, name))
				break;
		if (i == ncases) {
			lv_note("MISMATCH %s: expected %s, not run", name,
				verdict);
			mismatches++;
			continue;
		}
		seen[i] = true;
		if (strcmp(cases[i].verdict, verdict)) {
			lv_note("MISMATCH %s: expected %s, got %s", name,
				verdict, cases[i].verdict);
			mismatches++;
		}
	}
	fclose(f);
	for (i = 0; i < ncases; i++) {
		if (!seen[i]) {
			lv_note("MISMATCH %s: got %s, not expected",
				cases[i].name, cases[i].verdict);
			mismatches++;
		}
	}
	lv_note("%s: %d cases run, %d expected, %d mismatches, %d setup failures",
		lv_lsm, ncases, expected, mismatches, lv_failures);
	return (mismatches || lv_failures) ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* Files                                                                */

int lv_write_file(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	close(fd);
	return err;
}

int lv_write_str(const char *path, const char *s)
{
	return lv_write_file(path, s, strlen(s));
}

/* Reads at most size - 1 bytes and NUL-terminates; returns the length. */
int lv_read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	while (got < size - 1) {
		n = read(fd, buf + got, size - 1 - got);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		got += n;
	}
	buf[got] = '\0';
	close(fd);
	return got;
}

int lv_copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in, out, err = 0;
	ssize_t n;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, n) != n) {
			err = -EIO;
			break;
		}
	}
	if (n < 0)
		err = -errno;
	close(in);
	if (close(out) && !err)
		err = -errno;
	if (!err && chmod(to, mode))
		err = -errno;
	return err;
}

int lv_mkdir_p(const char *path, mode_t mode)
{
	char tmp[256];
	char *p;

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

/* A fresh tmpfs at dir (created if needed), world-searchable. */
int lv_mount_tmpfs(const char *dir)
{
	int err = lv_mkdir_p(dir, 0755);

	if (err)
		return err;
	if (mount("lsmverify", dir, "tmpfs", 0, "mode=0755"))
		return -errno;
	return 0;
}

static bool is_mounted(const char *dir)
{
	char buf[16384];
	char needle[260];

	if (lv_read_file("/proc/mounts", buf, sizeof(buf)) < 0)
		return false;
	snprintf(needle, sizeof(needle), " %s ", dir);
	return strstr(buf, needle) != NULL;
}

/* Mount a pseudo file system (securityfs, selinuxfs ...) if it is not yet. */
int lv_ensure_mount(const char *dir, const char *fstype)
{
	int err;

	if (is_mounted(dir))
		return 0;
	err = lv_mkdir_p(dir, 0755);
	if (err)
		return err;
	if (mount(fstype, dir, fstype, 0, NULL) && errno != EBUSY)
		return -errno;
	return 0;
}

int lv_make_file(const char *path, const char *content, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	size_t len = strlen(content);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, content, len) != (ssize_t)len)
		err = -EIO;
	close(fd);
	if (!err && chmod(path, mode))
		err = -errno;
	return err;
}

int lv_self_exe(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/* ------------------------------------------------------------------ */
/* Children                                                             */

int lv_wait_result(pid_t pid)
{
	int status, code;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return LV_RES_SETUP;
	}
	if (WIFSIGNALED(status))
		return LV_RES_SIG - WTERMSIG(status);
	if (!WIFEXITED(status))
		return LV_RES_SETUP;
	code = WEXITSTATUS(status);
	if (code == LV_CHILD_SETUP || code == LV_CHILD_USAGE)
		return LV_RES_SETUP;
	if (code >= 150 && code < 250)
		return LV_RES_EXEC - (code - 150);
	return -code;
}

static void child_exit(int rc)
{
	int code = -rc;

	if (rc > 0 || code > 149)
		code = LV_CHILD_SETUP;
	_exit(code);
}

/* Fork; the child runs prep(ctx) and exits LV_CHILD_SETUP if that fails. */
static pid_t fork_prepared(lv_prep_fn prep, const void *ctx)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0 && prep && prep(ctx))
		_exit(LV_CHILD_SETUP);
	return pid;
}

/* Fork; the child runs prep(ctx) then the operation; return its result. */
int lv_child(lv_prep_fn prep, const void *ctx, const char *op,
	     const char *arg)
{
	pid_t pid = fork_prepared(prep, ctx);

	if (pid < 0)
		return LV_RES_SETUP;
	if (pid == 0)
		child_exit(lv_run_op(op, arg));
	return lv_wait_result(pid);
}

/*
 * Fork; the child runs prep(ctx) (e.g. writes /proc/self/attr/exec) and
 * executes exe, which runs the operation in the domain or profile that the
 * exec entered.  The environment is empty (TOMOYO checks variable names).
 */
int lv_child_exec(lv_prep_fn prep, const void *ctx, const char *exe,
		  const char *op, const char *arg)
{
	char *const argv[] = { "lsmverify", "op", "--in-guest-child",
			       (char *)op, (char *)(arg ? arg : ""), NULL };
	char *const envp[] = { NULL };
	pid_t pid = fork_prepared(prep, ctx);
	int e;

	if (pid < 0)
		return LV_RES_SETUP;
	if (pid == 0) {
		execve(exe, argv, envp);
		e = errno;
		_exit(e < 100 ? 150 + e : LV_CHILD_SETUP);
	}
	return lv_wait_result(pid);
}

/* ------------------------------------------------------------------ */
/* Credentials                                                          */

/*
 * Keep only the listed capabilities in the effective/permitted/inheritable
 * sets (raw capset: no libcap in the guest).
 */
int lv_drop_caps(const int *keep, int nkeep)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct data[2];
	int i;

	memset(data, 0, sizeof(data));
	for (i = 0; i < nkeep; i++) {
		data[keep[i] / 32].effective |= 1U << (keep[i] % 32);
		data[keep[i] / 32].permitted |= 1U << (keep[i] % 32);
	}
	if (syscall(SYS_capset, &hdr, data))
		return -errno;
	return 0;
}

/*
 * Become an ordinary user: setgid/setuid from root clears all capabilities.
 * Stay dumpable so that ptrace tests are about Yama, not about dumpability.
 */
int lv_become_user(uid_t uid)
{
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
		return -errno;
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return -errno;
	return 0;
}

/* Read a whole file into a malloc'ed, NUL-terminated buffer. */
char *lv_slurp(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	int n;

	if (stat(path, &st))
		return NULL;
	buf = malloc(st.st_size + 1);
	if (!buf)
		return NULL;
	n = lv_read_file(path, buf, st.st_size + 1);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	if (len)
		*len = n;
	return buf;
}

/* Copy this program to path: exec-based cases run a copy with a label. */
int lv_copy_self(const char *path)
{
	char exe[256];
	int err = lv_self_exe(exe, sizeof(exe));

	if (err)
		return err;
	return lv_copy_file(exe, path, 0755);
}

/*
 * The files the path-based suites decide on: a tmpfs at dir with a, b and c
 * (each holding its own name) and a copy of this program at exe.
 */
int lv_abc_files(const char *dir, const char *exe)
{
	char path[256], content[] = "a\n";
	int err = lv_mount_tmpfs(dir);

	for (; !err && content[0] <= 'c'; content[0]++) {
		snprintf(path, sizeof(path), "%s/%c", dir, content[0]);
		err = lv_make_file(path, content, 0666);
	}
	return err ? err : lv_copy_self(exe);
}

/* Write value into the process attribute file of the calling process. */
int lv_set_attr(const char *which, const char *value)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/attr/%s", which);
	return lv_write_str(path, value);
}

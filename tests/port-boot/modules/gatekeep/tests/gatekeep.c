// SPDX-License-Identifier: GPL-2.0
/*
 * Guest test of gatekeep (lsmconv make port), the same binary on Linux 4.0
 * (the legacy module, security=gklsm) and on 6.1 (its port): as uid 1000,
 * no write to a file owned by uid 2000, no exec of lsmconv-noexec*, no
 * signal to a task named lsmconv-nokill*; uid 1001 and root are not
 * restricted.  Prints "case gatekeep.NAME allow|deny ERRNO" lines
 * (verify/compare.sh); exit 0 all as expected, 77 module not active, 1
 * otherwise.  Run as "gatekeep --exit0" it exits 0 at once (the program
 * the exec cases run).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "lsmtest.h"

#define OWNED	"/tmp/lsmconv-gk-owned"
#define NOEXEC	"/tmp/lsmconv-noexec-prog"
#define OKEXEC	"/tmp/lsmconv-okexec-prog"

static int bad;

/* Run fn(arg) in a child as uid; its errno (0: allowed) comes back through
 * a pipe, -1 when the child could not report. */
static int as_uid(uid_t uid, int (*fn)(const char *), const char *arg)
{
	int p[2], e = -1;
	pid_t pid;

	if (pipe(p) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (uid && setresuid(uid, uid, uid) < 0)
			e = -1;
		else
			e = fn(arg);
		if (write(p[1], &e, sizeof(e)) != sizeof(e))
			_exit(2);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &e, sizeof(e)) != sizeof(e))
		e = -1;
	close(p[0]);
	waitpid(pid, NULL, 0);
	return e;
}

static int open_write(const char *path)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int open_read(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* exec path in a grandchild: its errno comes back through a close-on-exec
 * pipe, nothing (EOF) when the exec succeeded. */
static int run(const char *path)
{
	int p[2], e = 0, st;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)path, "--exit0", NULL };

		close(p[0]);
		execv(path, argv);
		e = errno;
		if (write(p[1], &e, sizeof(e)) != sizeof(e))
			_exit(2);
		_exit(1);
	}
	close(p[1]);
	if (read(p[0], &e, sizeof(e)) != sizeof(e))
		e = 0;
	close(p[0]);
	waitpid(pid, &st, 0);
	if (!e && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
		e = -1;
	return e;
}

/* signal 0 (the permission check only) to a task named comm, started by
 * this uid; the task ends when its pipe closes (a signal to it may be the
 * very thing refused) */
static int signal_named(const char *comm)
{
	int up[2], down[2], e = 0;
	char c;
	pid_t pid;

	if (pipe(up) < 0 || pipe(down) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(up[0]);
		close(down[1]);
		prctl(PR_SET_NAME, comm, 0, 0, 0);
		if (write(up[1], "x", 1) != 1)
			_exit(1);
		while (read(down[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(up[1]);
	close(down[0]);
	if (read(up[0], &c, 1) != 1)
		e = -1;
	else if (kill(pid, 0) < 0)
		e = errno;
	close(down[1]);
	close(up[0]);
	waitpid(pid, NULL, 0);
	return e;
}

static int copy_self(const char *to)
{
	char buf[65536];
	ssize_t n;
	int in = open("/proc/self/exe", O_RDONLY), out;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			n = -1;
			break;
		}
	close(in);
	close(out);
	return n < 0 ? -1 : chmod(to, 0755);
}

static void check(const char *name, int e, int want)
{
	if (e < 0) {
		printf("case %s: the test itself failed\n", name);
		bad++;
		return;
	}
	bad += lsmtest_case("gatekeep", name, e, want);
}

int main(int argc, char **argv)
{
	int fd;

	if (argc > 1 && !strcmp(argv[1], "--exit0"))
		return 0;
	if (!lsmtest_active("gatekeep"))
		return 77;
	fd = open(OWNED, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || fchown(fd, 2000, 2000) < 0 || fchmod(fd, 0666) < 0) {
		printf("setup: %s: %s\n", OWNED, strerror(errno));
		return 1;
	}
	close(fd);
	if (copy_self(NOEXEC) < 0 || copy_self(OKEXEC) < 0) {
		printf("setup: copying the test program: %s\n", strerror(errno));
		return 1;
	}
	check("write_owned", as_uid(1000, open_write, OWNED), EACCES);
	check("read_owned", as_uid(1000, open_read, OWNED), 0);
	check("write_owned_other_user", as_uid(1001, open_write, OWNED), 0);
	check("exec_noexec", as_uid(1000, run, NOEXEC), EACCES);
	check("exec_other", as_uid(1000, run, OKEXEC), 0);
	check("exec_noexec_root", as_uid(0, run, NOEXEC), 0);
	check("signal_nokill", as_uid(1000, signal_named, "lsmconv-nokill"), EPERM);
	check("signal_other", as_uid(1000, signal_named, "lsmconv-other"), 0);
	check("signal_nokill_other_user", as_uid(1001, signal_named, "lsmconv-nokill"), 0);
	return bad ? 1 : 0;
}

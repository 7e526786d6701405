// SPDX-License-Identifier: GPL-2.0
/*
 * hookbench: what an LSM hook call costs, measured in the guest.
 *
 * Loops on system calls that cross common hooks and prints the time per
 * call, one line per operation:
 *
 *   hookbench OP median_ns=M min_ns=A max_ns=B rounds=R iters=N
 *
 * getpid crosses no LSM hook: it is the control that the host divides by
 * (TCG makes absolute times meaningless; ratios are what compare).
 *   getpid     no hook (control)
 *   pread1     security_file_permission (rw_verify_area)
 *   openclose  security_inode_permission, security_file_alloc,
 *              security_file_open, security_file_free
 *   stat       security_inode_getattr
 *
 * usage: hookbench [ITERS [ROUNDS]]   (defaults 4000 and 7)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PATH "/tmp/hookbench.dat"
#define MAX_ROUNDS 99

static int fd = -1;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int op_getpid(void)
{
	return syscall(SYS_getpid) > 0 ? 0 : -1;
}

static int op_pread1(void)
{
	char c;

	return pread(fd, &c, 1, 0) == 1 ? 0 : -1;
}

static int op_openclose(void)
{
	int f = open(PATH, O_RDONLY);

	if (f < 0)
		return -1;
	return close(f);
}

static int op_stat(void)
{
	struct stat st;

	return stat(PATH, &st);
}

static const struct {
	const char *name;
	int (*fn)(void);
} ops[] = {
	{ "getpid", op_getpid },
	{ "pread1", op_pread1 },
	{ "openclose", op_openclose },
	{ "stat", op_stat },
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 4000;
	int rounds = argc > 2 ? atoi(argv[2]) : 7;
	double t[MAX_ROUNDS];
	size_t o;
	long i;
	int r;

	if (iters < 1 || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: hookbench [ITERS [ROUNDS<=%d]]\n", MAX_ROUNDS);
		return 2;
	}
	fd = open(PATH, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "x", 1) != 1) {
		fprintf(stderr, "hookbench: %s: %s\n", PATH, strerror(errno));
		return 1;
	}
	for (o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
		/* one warm-up round, not counted */
		for (i = 0; i < iters / 10 + 1; i++)
			ops[o].fn();
		for (r = 0; r < rounds; r++) {
			double start = now_ns();

			for (i = 0; i < iters; i++) {
				if (ops[o].fn()) {
					fprintf(stderr, "hookbench: %s: %s\n",
						ops[o].name, strerror(errno));
					return 1;
				}
			}
			t[r] = (now_ns() - start) / iters;
		}
		qsort(t, rounds, sizeof(t[0]), cmp_double);
		printf("hookbench %s median_ns=%.0f min_ns=%.0f max_ns=%.0f rounds=%d iters=%ld\n",
		       ops[o].name, t[rounds / 2], t[0], t[rounds - 1], rounds, iters);
	}
	close(fd);
	unlink(PATH);
	return 0;
}

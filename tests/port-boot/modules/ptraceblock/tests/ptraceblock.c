// SPDX-License-Identifier: GPL-2.0
/*
 * Guest test of ptraceblock (lsmconv make port): PTRACE_ATTACH to a child
 * named lsmconv-victim* is refused with EPERM, to any other child allowed.
 * Prints "case ptraceblock.NAME allow|deny ERRNO" lines (verify/compare.sh);
 * exit 0 all as expected, 77 module not active, 1 otherwise.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "lsmtest.h"

static int bad;

static void attach_case(const char *name, const char *comm, int want)
{
	int p[2], e = 0, st;
	char c;
	pid_t pid;

	if (pipe(p) < 0) {
		bad++;
		return;
	}
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_NAME, comm, 0, 0, 0);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	if (read(p[0], &c, 1) != 1)
		bad++;
	if (ptrace(PTRACE_ATTACH, pid, 0, 0) < 0)
		e = errno;
	else
		waitpid(pid, &st, 0);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(p[0]);
	close(p[1]);
	bad += lsmtest_case("ptraceblock", name, e, want);
}

int main(void)
{
	if (!lsmtest_active("ptraceblock"))
		return 77;
	attach_case("attach_victim", "lsmconv-victim", EPERM);
	attach_case("attach_victim2", "lsmconv-victimX", EPERM);
	attach_case("attach_other", "lsmconv-other", 0);
	return bad ? 1 : 0;
}

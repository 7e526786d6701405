// SPDX-License-Identifier: GPL-2.0
/*
 * Guest test of credcount (lsmconv make port): in a fresh child, the first
 * two creates of lsmconv-count* files succeed and the third fails with
 * EDQUOT; other names are not counted; a second child starts from the
 * parent's count again.  Prints "case credcount.NAME allow|deny ERRNO";
 * exit 0 all as expected, 77 module not active, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "lsmtest.h"

static int create(const char *name, const char *file, int want)
{
	int fd = open(file, O_CREAT | O_EXCL | O_WRONLY, 0600), e = 0;

	if (fd < 0)
		e = errno;
	else
		close(fd);
	return lsmtest_case("credcount", name, e, want);
}

static int child(const char *tag)
{
	char f[4][64], n[4][64];
	int i, bad = 0;
	int want[4] = { 0, 0, 0, EDQUOT };
	const char *pfx[4] = { "lsmconv-count", "lsmconv-count", "lsmconv-other",
			       "lsmconv-count" };

	for (i = 0; i < 4; i++) {
		snprintf(f[i], sizeof(f[i]), "/tmp/%s-%s-%d", pfx[i], tag, i);
		snprintf(n[i], sizeof(n[i]), "%s_create%d", tag, i);
		bad += create(n[i], f[i], want[i]);
	}
	return bad;
}

static int in_child(const char *tag)
{
	int st;
	pid_t pid = fork();

	if (pid == 0)
		_exit(child(tag) ? 1 : 0);
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return 1;
	return WEXITSTATUS(st);
}

int main(void)
{
	int bad = 0;

	if (!lsmtest_active("credcount"))
		return 77;
	bad += in_child("a");
	bad += in_child("b");
	return bad ? 1 : 0;
}

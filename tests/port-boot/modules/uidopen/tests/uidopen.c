// SPDX-License-Identifier: GPL-2.0
/*
 * Guest test of uidopen (lsmconv make port): uid 1000 cannot open a file
 * named lsmconv-secret* (EACCES); root can, and uid 1000 can open other
 * files.  Prints "case uidopen.NAME allow|deny ERRNO" lines; exit 0 all as
 * expected, 77 module not active, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "lsmtest.h"

static int bad;

/* Open FILE for reading as UID (in a child); the errno, 0 on success. */
static int open_as(uid_t uid, const char *file)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		int fd;

		if (uid && (setgid(uid) < 0 || setuid(uid) < 0))
			_exit(200);
		fd = open(file, O_RDONLY);
		_exit(fd < 0 ? errno : 0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static void open_case(const char *name, uid_t uid, const char *file, int want)
{
	int e = open_as(uid, file);

	bad += lsmtest_case("uidopen", name, e, want);
}

static void mkfile(const char *file)
{
	int fd = open(file, O_CREAT | O_WRONLY, 0644);

	if (fd < 0) {
		printf("setup: %s: %s\n", file, strerror(errno));
		bad++;
		return;
	}
	close(fd);
	chmod(file, 0644);
}

int main(void)
{
	if (!lsmtest_active("uidopen"))
		return 77;
	mkfile("/tmp/lsmconv-secret-1");
	mkfile("/tmp/lsmconv-public-1");
	open_case("user_secret", 1000, "/tmp/lsmconv-secret-1", EACCES);
	open_case("user_public", 1000, "/tmp/lsmconv-public-1", 0);
	open_case("root_secret", 0, "/tmp/lsmconv-secret-1", 0);
	open_case("other_user_secret", 1001, "/tmp/lsmconv-secret-1", 0);
	return bad ? 1 : 0;
}

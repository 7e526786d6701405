// SPDX-License-Identifier: GPL-2.0
/*
 * Print the security classes, permissions and initial SIDs of a kernel tree
 * in the checkpolicy language, from the tree's own
 * security/selinux/include/{classmap.h,initial_sid_to_string.h}.
 *
 *   gen-classmap classes     "class NAME" lines
 *   gen-classmap sids        "sid NAME" lines, in SID order
 *   gen-classmap vectors     "class NAME { perm ... }" lines
 *   gen-classmap contexts    "sid NAME CONTEXT" lines
 *   gen-classmap allclasses  the class names on one line
 *
 * Built on the host with -I to the tree's security/selinux/include and the
 * stub headers beside this file.
 */
#include <stdio.h>
#include <string.h>

struct security_class_mapping {
	const char *name;
	const char *perms[sizeof(unsigned int) * 8 + 1];
};

#include "classmap.h"
#include "initial_sid_to_string.h"

#define NSIDS (sizeof(initial_sid_to_string) / sizeof(initial_sid_to_string[0]))

/*
 * Unused SID numbers still need a name, for checkpolicy numbers SIDs by
 * their order.
 */
static const char *sid_name(unsigned int i, char *buf, size_t size)
{
	if (initial_sid_to_string[i])
		return initial_sid_to_string[i];
	snprintf(buf, size, "unused%u", i);
	return buf;
}

static const char *sid_context(const char *name)
{
	if (!strcmp(name, "kernel"))
		return "u:r:kernel_t:s0";
	if (!strcmp(name, "security"))
		return "u:object_r:security_t:s0";
	if (!strcmp(name, "file"))
		return "u:object_r:file_t:s0";
	if (!strcmp(name, "devnull"))
		return "u:object_r:null_t:s0";
	return "u:object_r:unlabeled_t:s0";
}

int main(int argc, char **argv)
{
	const struct security_class_mapping *c;
	const char *what = argc > 1 ? argv[1] : "";
	char buf[32];
	unsigned int i;
	int j;

	if (!strcmp(what, "classes")) {
		for (c = secclass_map; c->name; c++)
			printf("class %s\n", c->name);
	} else if (!strcmp(what, "sids")) {
		for (i = 1; i < NSIDS; i++)
			printf("sid %s\n", sid_name(i, buf, sizeof(buf)));
	} else if (!strcmp(what, "vectors")) {
		for (c = secclass_map; c->name; c++) {
			printf("class %s {", c->name);
			for (j = 0; c->perms[j]; j++)
				printf(" %s", c->perms[j]);
			printf(" }\n");
		}
	} else if (!strcmp(what, "contexts")) {
		for (i = 1; i < NSIDS; i++) {
			const char *name = sid_name(i, buf, sizeof(buf));

			printf("sid %s %s\n", name, sid_context(name));
		}
	} else if (!strcmp(what, "allclasses")) {
		for (c = secclass_map; c->name; c++)
			printf("%s%s", c == secclass_map ? "" : " ", c->name);
		printf("\n");
	} else {
		fprintf(stderr, "usage: gen-classmap classes|sids|vectors|contexts|allclasses\n");
		return 2;
	}
	return 0;
}

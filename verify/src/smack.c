// SPDX-License-Identifier: GPL-2.0
/*
 * lsmverify - Smack: rules from /lsmverify/smack/rules.txt go into
 * smackfs load2, files on a tmpfs get labels through security.SMACK64, and
 * a child takes a subject label through /proc/self/attr/current, drops its
 * capabilities (CAP_MAC_OVERRIDE would bypass every check) and acts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/xattr.h>

#include "lsmverify.h"

#define SMACKFS	"/sys/fs/smackfs"
#define DIR	LV_RUN "/smack"
#define RULES	LV_DATA "/smack/rules.txt"

struct subject {
	const char *label;
	bool privileged;	/* keep CAP_MAC_OVERRIDE */
};

static int prep_subject(const void *ctx)
{
	const struct subject *s = ctx;
	static const int keep[] = { CAP_MAC_OVERRIDE };

	if (lv_set_attr("current", s->label))
		return -1;
	return lv_drop_caps(keep, s->privileged ? 1 : 0);
}

static const struct subject subj_a = { "LvSubjA", false };
static const struct subject subj_b = { "LvSubjB", false };
static const struct subject subj_a_priv = { "LvSubjA", true };

static int load_rules(void)
{
	char *rules = lv_slurp(RULES, NULL);
	char *line, *save;
	int err = 0;

	if (!rules)
		return -errno ?: -ENOENT;
	for (line = strtok_r(rules, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!*line || *line == '#')
			continue;
		err = lv_write_str(SMACKFS "/load2", line);
		if (err)
			lv_note("smack: load2 refused \"%s\": %s", line,
				strerror(-err));
	}
	free(rules);
	return err;
}

static int label_file(const char *path, const char *label)
{
	int err = lv_make_file(path, "data\n", 0666);

	if (err)
		return err;
	if (setxattr(path, "security.SMACK64", label, strlen(label), 0))
		return -errno;
	return 0;
}

int lv_suite_smack(void)
{
	int err;

	err = lv_ensure_mount(SMACKFS, "smackfs");
	if (err)
		return lv_setup_fail("mount smackfs", err);
	err = lv_mount_tmpfs(DIR);
	if (!err)
		err = label_file(DIR "/a", "LvObjA");
	if (!err)
		err = label_file(DIR "/b", "LvObjB");
	if (!err)
		err = label_file(DIR "/c", "LvObjC");
	if (!err)
		err = label_file(DIR "/floor", "_");
	/* Two copies of this program: floor label, and LvObjA (no x). */
	if (!err)
		err = lv_copy_self(DIR "/exe_floor");
	if (!err && setxattr(DIR "/exe_floor", "security.SMACK64", "_", 1, 0))
		err = -errno;
	if (!err)
		err = lv_copy_self(DIR "/exe_a");
	if (!err && setxattr(DIR "/exe_a", "security.SMACK64", "LvObjA", 6, 0))
		err = -errno;
	if (err)
		return lv_setup_fail("labelled files in " DIR, err);

	err = load_rules();
	lv_case("load_rules", err);
	if (err)
		return lv_setup_fail("load2", err);

	/* LvSubjA: r on LvObjA, rw on LvObjC, nothing on LvObjB. */
	lv_case("a_read_a", lv_child(prep_subject, &subj_a, "read", DIR "/a"));
	lv_case("a_write_a", lv_child(prep_subject, &subj_a, "write", DIR "/a"));
	lv_case("a_read_b", lv_child(prep_subject, &subj_a, "read", DIR "/b"));
	lv_case("a_write_c", lv_child(prep_subject, &subj_a, "write", DIR "/c"));
	lv_case("a_read_floor",
		lv_child(prep_subject, &subj_a, "read", DIR "/floor"));
	lv_case("a_write_floor",
		lv_child(prep_subject, &subj_a, "write", DIR "/floor"));
	lv_case("a_exec_floor",
		lv_child(prep_subject, &subj_a, "exec", DIR "/exe_floor"));
	lv_case("a_exec_a", lv_child(prep_subject, &subj_a, "exec", DIR "/exe_a"));
	/* LvSubjB: rwa on LvObjB only. */
	lv_case("b_read_b", lv_child(prep_subject, &subj_b, "read", DIR "/b"));
	lv_case("b_append_b",
		lv_child(prep_subject, &subj_b, "append", DIR "/b"));
	lv_case("b_read_a", lv_child(prep_subject, &subj_b, "read", DIR "/a"));
	/* Signals need write access to the receiver's label ("_" here). */
	lv_case("a_signal_parent",
		lv_child(prep_subject, &subj_a, "sigurg", "ppid"));
	lv_case("a_signal_self",
		lv_child(prep_subject, &subj_a, "sigurg", "self"));
	/* Relabelling needs CAP_MAC_ADMIN. */
	lv_case("a_relabel_self",
		lv_child(prep_subject, &subj_a, "setcurrent", "LvSubjB"));
	lv_case("a_relabel_file",
		lv_child(prep_subject, &subj_a, "smacklabel", DIR "/c=LvObjA"));
	/* CAP_MAC_OVERRIDE bypasses the rules. */
	lv_case("a_override_read_b",
		lv_child(prep_subject, &subj_a_priv, "read", DIR "/b"));
	/* Root (label "_", all capabilities) is privileged too. */
	lv_case("root_read_b", lv_child(NULL, NULL, "read", DIR "/b"));
	return 0;
}

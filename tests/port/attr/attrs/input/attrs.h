/*
 * attrs: a module in three files written for lsmconv's tests of make
 * port's attribution (issue 27): the entries gcc misplaces after an
 * unconverted one (hooks.c), errors at definitions in another file than the
 * todo that names them (creds.c, this header), an undeclared name from a
 * header the target does not have (creds.c), and a file gcc stops on
 * (notcomp.c: a computed include no stub can provide).
 */
#ifndef ATTRS_H
#define ATTRS_H

int attrs_bprm_set_creds(struct linux_binprm *bprm);
int attrs_sysctl(ctl_table *table, int op);
int attrs_inode_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode);

#endif /* ATTRS_H */

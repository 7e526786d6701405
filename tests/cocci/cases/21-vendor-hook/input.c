static struct security_operations acme_ops = {
	.name =			"acme",
	.bprm_set_creds =	acme_bprm_set_creds,
	.bprm_check_security =	acme_bprm_check_security,
	.acme_audit_hook =	acme_audit_hook,
	.file_open =		acme_file_open,
};

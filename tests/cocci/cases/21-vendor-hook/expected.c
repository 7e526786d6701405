static struct security_hook_list acme_hooks[] __lsm_ro_after_init = {
	.bprm_set_creds =	acme_bprm_set_creds,
	LSM_HOOK_INIT(bprm_check_security, acme_bprm_check_security),
	.acme_audit_hook =	acme_audit_hook,
	LSM_HOOK_INIT(file_open, acme_file_open),
};

# lsmverify's AppArmor profiles, compiled on the host with apparmor_parser
# against features-6.1 (the feature set of Debian's 6.1 kernel) and loaded
# in the guest through /sys/kernel/security/apparmor/.load.  Children enter
# a profile by writing "exec lsmv_a" to /proc/self/attr/exec and executing
# the copy of lsmverify at /lsmverify-run/apparmor/exe.

profile lsmv_a flags=(enforce) {
  /lsmverify-run/apparmor/exe mr,
  /lsmverify-run/apparmor/a r,
  /lsmverify-run/apparmor/c rw,
  capability sys_nice,
  #MUTANT#
}

profile lsmv_b flags=(enforce) {
  /lsmverify-run/apparmor/exe mr,
  /lsmverify-run/apparmor/b r,
  network unix stream,
}

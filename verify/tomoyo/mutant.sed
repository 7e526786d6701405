# Negative test: domain-b may also read a, so tomoyo.b_read_a turns to allow.
s|^file read /lsmverify-run/tomoyo/b$|file read /lsmverify-run/tomoyo/b\nfile read /lsmverify-run/tomoyo/a|

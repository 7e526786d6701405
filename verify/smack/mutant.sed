# Negative test: LvSubjA may also read LvObjB, so smack.a_read_b turns to allow.
$a LvSubjA LvObjB r

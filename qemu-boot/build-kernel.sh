#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build an x86_64 bzImage out of tree, incrementally, with gcc through ccache:
# objects in TREE/.lsmconv-obj-NAME for a tree lsmconv made (under build/),
# else build/kernels/NAME (scripts/lib.sh, kbuild_objdir); build/kernels/NAME
# is always the way to it.
#
# usage: build-kernel.sh --tree DIR --name NAME [--fragment FILE]... [--jobs N]
#                        [--seed OBJDIR] [--keep-going]
#
# The config is tinyconfig plus the fragments (default: base + lsm + the
# config fragment of each selftest suite the guest runs that the tree has,
# tools/testing/selftests/{landlock,lsm}/config: scripts/lib.sh,
# selftest_fragments).  It is regenerated only when the fragments change.  Every option a fragment sets
# must survive olddefconfig, else the build stops naming the option: a
# fragment that silently loses an LSM would make every later check meaningless.
#
# --seed OBJDIR: a kernel NAME not built before starts as a copy of OBJDIR, a
# finished build of the tree TREE was hard-linked from (make port: the
# target's kernel lsm), so that Kbuild compiles only what differs
# (kbuild_seed, scripts/lib.sh); otherwise the build is cold and says why.
#
# --keep-going: make -k, so that a failing build shows the errors of every
# directory at once (make port drops each legacy module that does not build
# on the baseline in one attempt, not one attempt per module).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

usage() {
	echo "usage: ${0##*/} --tree DIR --name NAME [--fragment FILE]... [--jobs N] [--seed OBJDIR] [--keep-going]" >&2
	exit 2
}

tree='' name='' jobs=$(nproc) seed='' keep=()
frags=()
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) show_help ;;
	--tree) tree=${2:?}; shift 2 ;;
	--name) name=${2:?}; shift 2 ;;
	--fragment) frags+=("$(realpath "${2:?}")"); shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	--seed) seed=${2:?}; shift 2 ;;
	--keep-going) keep=(-k); shift ;;
	*) usage ;;
	esac
done
if [ -z "$tree" ] || [ -z "$name" ]; then usage; fi
require_kernel_tree "$tree"
tree=$(realpath "$tree")
if [ ${#frags[@]} -eq 0 ]; then
	mapfile -t frags < <(lsm_fragments "$tree")
fi
for f in "${frags[@]}"; do
	[ -f "$f" ] || die_usage "$f: no such config fragment"
done

out=$(kbuild_objdir "$tree" "$name")
link=$LSMCONV_ROOT/build/kernels/$name

if [ -n "$seed" ] && [ ! -e "$out" ]; then
	progress 0 3 "$name: $(kbuild_seed "$tree" "$out" "$seed")"
fi
mkdir -p "$out" "${link%/*}"
if [ "$out" != "$link" ]; then
	# build/kernels/NAME: a real directory there is an older build of ours.
	[ -L "$link" ] || rm -rf "$link"
	ln -sfn "$out" "$link"
fi
log=$out/build.log
kmake() {
	kbuild "$tree" "$out" "$@"
}

# frag_names: the fragments, relative to the tree or the repository.
frag_names() {
	local f names=()
	for f in "${frags[@]}"; do
		f=${f#"$tree"/}
		names+=("${f#"$LSMCONV_ROOT"/}")
	done
	echo "${names[*]}"
}

# The configuration: tinyconfig + the fragments (kconfig, scripts/lib.sh),
# redone only when they change.
progress 1 3 "configuring $name (tinyconfig + $(frag_names))"
# (kconfig writes $log, OBJDIR/build.log, which the build appends to)
kconfig "$tree" "$out" "$out/lost-options" "${frags[@]}" ||
	die_log "$log" "configuring $name failed, see $log"
if [ -s "$out/lost-options" ]; then
	sed "s/^/${0##*\/}: /; s/\$/ (unmet dependency?)/" "$out/lost-options" >&2
	die "$(wc -l <"$out/lost-options") fragment option(s) lost; fix the fragment"
fi

progress 2 3 "building $name bzImage (-j$jobs, $LSMCONV_CC, log: $log)"
ccache_log_begin "$out/.lsmconv-ccache.log"
if ! kmake "${keep[@]}" -j"$jobs" bzImage >>"$log" 2>&1; then
	grep -E ': (error|fatal error):|Error [0-9]' "$log" | head -20 >&2
	die_log "$log" "build of $name failed, see $log"
fi
bz=$out/arch/x86/boot/bzImage
[ -f "$bz" ] || die "build finished but $bz is missing"
read -r hits calls < <(ccache_log_count "$out/.lsmconv-ccache.log")
progress 3 3 "$name: $bz ($(stat -c %s "$bz") bytes; ccache: $hits of $calls compilations from the cache)"
echo "$bz"

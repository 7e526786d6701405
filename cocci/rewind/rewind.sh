#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Rewind a stacked (5.x/6.x) kernel tree to the pre-stacking LSM API of 4.0:
# one struct security_operations, register_security(), capability.c defaults,
# cap_* calls in the major modules, Yama stacked by hand.  Mechanical: the
# semantic patches and generators of cocci/rewind/ do every edit.
#
# usage: rewind.sh --tree SRC [--out DIR] [--series DIR] [--skip-step capchain]
#                  [--force]
#
#   --tree SRC     the stacked tree (read only; a git repo, or a plain tree
#                  that is first copied to build/rewind-src and committed)
#   --out DIR      the baseline tree to create (default build/baseline); one
#                  commit per step on top of SRC's HEAD
#   --series DIR   where the steps are written with git format-patch
#                  (default converted-patches/rewind)
#   --skip-step capchain
#                  leave the cap_* calls out of the modules: a deliberately
#                  wrong baseline, for the tests that must catch it
#   --force        write --series even when it holds files lsmconv did not
#                  write (never /, $HOME or the repository)
#
# Reproducible: lsmconv_git (scripts/lib.sh), so running it twice gives the
# same commits and byte-identical patches.  --out and --series must be
# absent, empty or made by lsmconv (a marker file); one run at a time per
# --out (flock); --series is replaced by a rename when complete;
# SIGINT/SIGTERM stop every child and exit 130/143.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"

here=$LSMCONV_ROOT/cocci/rewind
usage() {
	echo "usage: ${0##*/} --tree SRC [--out DIR] [--series DIR] [--skip-step capchain] [--force]" >&2
	exit 2
}

src='' out=$LSMCONV_ROOT/build/baseline series=$LSMCONV_ROOT/converted-patches/rewind skip='' force=0
while [ $# -gt 0 ]; do
	case $1 in
	--tree) src=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--series) series=${2:?}; shift 2 ;;
	--skip-step)
		skip=${2:?}
		[ "$skip" = capchain ] || usage
		shift 2
		;;
	--force) force=1; shift ;;
	-h | --help) show_help ;;
	*) usage ;;
	esac
done
[ -n "$src" ] || usage

# Check the input before anything is written.
require_kernel_tree "$src"
src=$(realpath "$src")
[ -f "$src/include/linux/lsm_hook_defs.h" ] ||
	die_usage "$src: no include/linux/lsm_hook_defs.h: not a stacked (5.7+) tree, nothing to rewind"
grep -q 'security_hook_list' "$src/security/security.c" ||
	die_usage "$src: security/security.c has no hook lists: already rewound?"
command -v spatch >/dev/null || die_usage "spatch not found (apt-get install coccinelle)"
out=$(realpath -m "$out")
series=$(realpath -m "$series")
case $out in
"$src" | "$src"/*) die_usage "$out: the output must not be inside the source tree" ;;
esac
if [ -e "$out" ] && [ ! -f "$out/.lsmconv-rewind" ]; then
	die_usage "$out exists and was not made by ${0##*/}; remove it or choose another --out"
fi
guard_out "$out" .lsmconv-rewind 0 --out
guard_out "$series" .lsmconv-out "$force" --series '[0-9][0-9][0-9][0-9]-*.patch'
[ "$out" != "$series" ] || die_usage "--out and --series are the same directory"
lock_dir "$out"
lock_dir "$series"
interrupted() { rm -rf "$series.lsmconv-new"; }
on_interrupt interrupted

n=11
g() { lsmconv_git "$@"; }	# lib.sh: fixed identity and date

# [1] The source as a git repository.
if [ -d "$src/.git" ]; then
	repo=$src
	progress 1 $n "source $src (git, HEAD $(g -C "$src" rev-parse --short HEAD))"
else
	repo=$LSMCONV_ROOT/build/rewind-src
	progress 1 $n "source $src is not a git repo: committing a copy in $repo"
	if [ ! -d "$repo/.git" ] || [ "$(cat "$repo/.lsmconv-src" 2>/dev/null)" != "$src" ]; then
		rm -rf "$repo"
		mkdir -p "$repo"
		cp -a "$src/." "$repo/"
		rm -rf "${repo:?}/${LSMCONV_OBJ_PREFIX:?}"*	# its object directories (scripts/lib.sh)
		g -C "$repo" init -q
		g -C "$repo" add -A -f .
		g -C "$repo" commit -q -m "$(basename "$src") (pristine)"
		echo "$src" >"$repo/.git/lsmconv-src"
		echo "$src" >"$repo/.lsmconv-src"
	fi
fi

# [2] A fresh clone: every run starts from the same commit.
head=$(g -C "$repo" rev-parse HEAD)
if [ -d "$out/.git" ] && g -C "$out" cat-file -e "$head^{commit}" 2>/dev/null; then
	progress 2 $n "resetting $out to $(g -C "$repo" rev-parse --short HEAD)"
	g -C "$out" reset -q --hard "$head"
	g -C "$out" clean -q -fdx -e .lsmconv-rewind -e "/$LSMCONV_OBJ_PREFIX*"
else
	progress 2 $n "cloning into $out"
	rm -rf "$out"
	g clone -q "$repo" "$out"
	: >"$out/.lsmconv-rewind"
	echo ".lsmconv-rewind" >>"$out/.git/info/exclude"
fi
base=$head
work=$out/.git/lsmconv-rewind.d
mkdir -p "$work"

# spatch on files, in place; every file spatch cannot parse is reported.
sp() {
	local cocci=$1
	shift
	local f
	for f in "$@"; do
		if ! bg_run spatch --very-quiet --no-includes -D patch --sp-file "$cocci" \
			--in-place "$out/$f" >"$work/spatch.log" 2>&1; then
			cat "$work/spatch.log" >&2
			die "spatch $(basename "$cocci") failed on $f"
		fi
		if grep -q -E '^(parse error|BAD:!)' "$work/spatch.log"; then
			warn "spatch $(basename "$cocci"): parse problems in $f"
		fi
	done
}
commit() {
	local subject=$1 body=$2
	shift 2
	python3 "$here/cpp_rewind.py" strip-new-ws "$out" "$@"
	g -C "$out" add -f -- "$@"
	if g -C "$out" diff --cached --quiet; then
		die "step '$subject' changed nothing"
	fi
	g -C "$out" commit -q -F - <<-EOF
	$subject

	$body

	Generated by lsmconv cocci/rewind/rewind.sh; not a hand edit.
	EOF
}

# What the tree says about its LSMs: every security_hook_list array, read
# from the source (capability's and Yama's lists, the modules' hooks).
progress 3 $n "reading the hook arrays of $src"
files=()
while IFS= read -r f; do files+=("$f"); done < <(cd "$src" && grep -l -E 'security_add_hooks\(' \
	security/commoncap.c security/selinux/*.c security/smack/*.c \
	security/tomoyo/*.c security/apparmor/*.c security/yama/*.c | sort)
(cd "$src" && for f in "${files[@]}"; do
	spatch --very-quiet --no-includes -D report --sp-file "$here/list-hooks.cocci" "$f"
done) | sort -t$'\t' -k1,1 -k2,2n >"$work/hooks.tsv"
capfile=$(cd "$src" && grep -l 'LSM_ORDER_FIRST' "${files[@]}" | head -1)
[ -n "$capfile" ] || die "$src: no LSM_ORDER_FIRST module (capability) found"
awk -F'\t' -v f="$capfile" '$1 == f' "$work/hooks.tsv" >"$work/cap.tsv"
awk -F'\t' -v f="$capfile" '$1 != f' "$work/hooks.tsv" >"$work/mod.tsv"
awk -F'\t' '$3 == "yama_hooks"' "$work/hooks.tsv" >"$work/yama.tsv"
modfiles=()
while IFS= read -r f; do modfiles+=("$f"); done < <(cut -f1 "$work/mod.tsv" | sort -u)
[ -s "$work/cap.tsv" ] || die "$capfile: no capability hooks found"
echo "# $(wc -l <"$work/cap.tsv") capability hooks ($capfile);" \
	"$(wc -l <"$work/mod.tsv") module hooks in ${#modfiles[@]} files" >&2

# [4] security/capability.c
progress 4 $n "capability.c: default hooks from lsm_hook_defs.h"
python3 "$here/gen.py" capability "$out" "$work/cap.tsv"
commit "LSM: rewind: generate security/capability.c" \
"One default per hook of include/linux/lsm_hook_defs.h (the value the
stacked security.c used when no module answers), the real cap_* functions
for the $(wc -l <"$work/cap.tsv") hooks capability implements, and
security_fixup_ops() that fills the empty slots of a security_operations." \
	security/capability.c security/Makefile

# [5] struct security_operations in security.h
progress 5 $n "security.h: struct security_operations"
python3 "$here/gen.py" struct "$out"
commit "LSM: rewind: declare struct security_operations" \
"One function pointer per hook of include/linux/lsm_hook_defs.h, with its
#ifdef groups, and the legacy prototypes: register_security(),
security_module_enable(), security_fixup_ops()." \
	include/linux/security.h

# [6] security.c
progress 6 $n "security.c: one security_ops vector"
python3 "$here/cpp_rewind.py" drop-define "$out/security/security.c" call_void_hook call_int_hook
python3 "$here/cpp_rewind.py" drop-xmacro "$out/security/security.c" security_hook_heads
sp "$here/20-security-c.cocci" security/security.c
sp "$here/21-security-c-unused.cocci" security/security.c
python3 "$here/cpp_rewind.py" call-hooks "$out/security/security.c"
python3 "$here/cpp_rewind.py" fix-fn-brace "$out/security/security.c"
commit "LSM: rewind: security.c calls one security_ops vector" \
"Every wrapper calls security_ops->hook(); the loops over hook lists are
reduced to what a single vector means; register_security() succeeds once;
security_module_enable() picks the module chosen by security= (or the
first major to ask, in CONFIG_LSM order)." \
	security/security.c

# [7] commoncap.c
progress 7 $n "commoncap.c: capability is a library again"
sp "$here/10-commoncap.cocci" "$capfile"
python3 "$here/cpp_rewind.py" drop-ifdef "$out/$capfile" CONFIG_SECURITY
commit "LSM: rewind: capability no longer registers hooks" \
"security/capability.c installs the cap_* functions as defaults; the
modules call them themselves." \
	"$capfile"

# [8] the modules
progress 8 $n "modules: struct security_operations + register_security (${#modfiles[@]} files)"
sp "$here/30-modules.cocci" "${modfiles[@]}"
commit "LSM: rewind: modules register a struct security_operations" \
"Each hook array becomes a security_operations initializer with .name,
registered by register_security() after a security_module_enable() check." \
	"${modfiles[@]}"

# [9] cap_* calls
if [ "$skip" = capchain ]; then
	progress 9 $n "modules: cap_* calls LEFT OUT (--skip-step capchain)"
else
	progress 9 $n "modules: call capability first"
	python3 "$here/gen.py" capchain "$src" "$work/cap.tsv" "$work/mod.tsv" >"$work/capchain.cocci"
	sp "$work/capchain.cocci" "${modfiles[@]}"
	commit "LSM: rewind: modules call the capability hooks themselves" \
"A module replaced capability's defaults, so each hook that capability
also implements calls cap_<hook>() first and stops where the stacked
security.c would have stopped after capability." \
		"${modfiles[@]}"
fi

# [10] Yama
progress 10 $n "Yama: stacked by hand under CONFIG_SECURITY_YAMA_STACKED"
if [ -s "$work/yama.tsv" ]; then
	yfile=$(cut -f1 "$work/yama.tsv" | head -1)
	python3 "$here/gen.py" yama "$out" "$work/yama.tsv" >"$work/yama.cocci"
	sp "$work/yama.cocci" security/security.c "$yfile"
	commit "LSM: rewind: Yama stacks by hand (CONFIG_SECURITY_YAMA_STACKED)" \
"As in 4.0: with CONFIG_SECURITY_YAMA_STACKED security.c calls Yama's hooks
before security_ops; otherwise Yama registers like any other module." \
		security/security.c "$yfile" include/linux/security.h security/yama/Kconfig
else
	warn "no Yama hook array: step skipped"
fi

# [11] lsm_hooks.h, then the series.
progress 11 $n "lsm_hooks.h: no hook lists; series into $series"
h=$out/include/linux/lsm_hooks.h
python3 "$here/cpp_rewind.py" drop-type "$h" security_list_options security_hook_heads security_hook_list
python3 "$here/cpp_rewind.py" drop-define "$h" LSM_HOOK_INIT
sp "$here/60-lsm-hooks-h.cocci" include/linux/lsm_hooks.h
python3 "$here/cpp_rewind.py" drop-ifdef "$h" CONFIG_SECURITY_SELINUX_DISABLE
commit "LSM: rewind: lsm_hooks.h without hook lists" \
"security_hook_list, security_hook_heads, LSM_HOOK_INIT and
security_add_hooks() go; the blob and DEFINE_LSM infrastructure stays." \
	include/linux/lsm_hooks.h

# The series is replaced by a rename when complete: never half-written.
rm -rf "$series.lsmconv-new"
mkdir -p "$series.lsmconv-new"
g -C "$out" format-patch -q --no-signature --no-stat --full-index --zero-commit \
	-o "$series.lsmconv-new" "$base..HEAD" >/dev/null
echo "Written by lsmconv (cocci/rewind/rewind.sh); the next run replaces this directory." \
	>"$series.lsmconv-new/.lsmconv-out"
rm -rf "$series"
mv "$series.lsmconv-new" "$series"
left=$(cd "$out" && { grep -l -E 'security_hook_list|LSM_HOOK_INIT|call_int_hook|call_void_hook|security_add_hooks' \
	include/linux/security.h include/linux/lsm_hooks.h security/security.c security/commoncap.c \
	security/capability.c "${modfiles[@]}" 2>/dev/null || true; })
[ -z "$left" ] || warn "hook-list API still used in: $left"
echo "# $(find "$series" -name '*.patch' | wc -l) patches in $series; baseline tree $out" >&2

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Port legacy security modules into a kernel tree, build it, boot it, and
# (when the legacy form builds on a legacy baseline: the rewound distro tree,
# or a tree of the module's own era) prove the decisions did not change.
# `make port MODULE=DIR [NAME=] [TREE=] [BASELINE=]` runs this.
#
# usage: port.sh [--target TREE] [--baseline TREE|none]... [--work DIR]
#                [--finished] [--mutate-drop NAME:HOOK]... [--timeout S]
#                MODULE[:NAME]...
#
# MODULE is a directory holding the legacy module's *.c/*.h files, or one
# with legacy/ (the sources), finished/ (a hand-finished port, used with
# --finished) and tests/.  Guest tests: MODULE/tests/*.c are compiled
# static, other executables are copied; each runs in /lsmtest/ (exit 0 pass,
# 77 skip, else fail).  NAME defaults to the directory name.
#
# Steps: convert (convert.sh port, or convert.sh file while the tree has no
# port mode) -> scratch copy of TREE with security/NAME/, Kconfig, Makefile
# and CONFIG_LSM -> build (qemu-boot/build-kernel.sh: the target's kernel
# lsm plus the modules, started from lsm's objects when it is built; compile
# errors are attributed to the report's todos) -> boot with lsm=capability,NAME...
# (qemu-boot/run.sh), /sys/kernel/security/lsm must list every NAME, the
# guest tests must pass -> equivalence: the legacy sources built into a
# scratch copy of the first legacy baseline they build on, booted with
# security= the name that tree knows the module by, the same tests,
# verify/compare.sh on the two traces.  The baselines, in order: each
# --baseline given, else build/baseline (the rewound distro tree: the
# legacy API with the target's signatures) and build/v21/base (Linux 4.0,
# make v21 unpacks it from ../shared/trees: the API of 3.x/4.0 modules).
#
# Exit (EXIT_* of scripts/lib.sh, docs/CONTRACTS.md): 0 every step passed;
# 1 the build failed and every compile error in the modules is a todo of the
# report, or the modules built only with missing headers stubbed (todos left
# for a human); 2 usage or setup error, nothing written; 3 a step failed (the
# report gave a false all-clear, a module gcc did not compile, the kernel
# itself did not build, the boot, a guest test, the equivalence: each named).
# Nothing is written into TREE or the baseline: both are copied with
# hard links (cp -al) and every file port.sh changes is replaced, not edited.
#
# One run at a time per --work DIR (and per kernel name, build/kernels/
# BASENAME-*, when DIR is outside build/): a second run waits for the first,
# saying so, up to LSMCONV_LOCK_WAIT seconds (default 3600; 0: refuse at
# once), then exits 2.  A run that exits 2 after taking the lock, or is
# interrupted (SIGINT, SIGTERM: every process it started is stopped, exit
# 130/143), leaves no temporary file and no --work DIR it created.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

usage() {
	sed -n '7,9s/^# \{0,1\}//p' "$0" >&2
	exit "$EXIT_USAGE"
}
# port_cleanup: what a run that ends early leaves: no temporary file
# (replace's, a seeded object directory half copied), no process it started,
# and no --work DIR it created (build/ccache keeps what it compiled).
work_new=0 locked=0
port_cleanup() {
	[ "$locked" = 1 ] || return 0
	wait 2>/dev/null || true
	find "$work" -name '*.lsmconv-tmp.*' -exec rm -f -- {} + 2>/dev/null || true
	rm -rf -- "$work"/*/"$LSMCONV_OBJ_PREFIX"*.seeding "$LSMCONV_ROOT/build/kernels/$kbase-"*.seeding
	if [ "$work_new" = 1 ]; then rm -rf -- "$work"; fi
}
fail_setup() {
	port_cleanup
	die_usage "$@"
}
# kept LOG: ", see LOG" when LOG outlives a setup error (a --work DIR this
# run did not create).
kept() { [ "$work_new" = 1 ] || echo ", see $1"; }

target=$LSMCONV_DISTRO_TREE
baselines=()
work=$LSMCONV_ROOT/build/port
finished=0 timeout=${LSMCONV_BOOT_TIMEOUT:-120}
specs=() mutates=()
while [ $# -gt 0 ]; do
	case $1 in
	--target) need_value "$@"; target=$2; shift 2 ;;
	--baseline) need_value "$@"; baselines+=("$2"); shift 2 ;;
	--work) need_value "$@"; work=$2; shift 2 ;;
	--finished) finished=1; shift ;;
	--mutate-drop) need_value "$@"; mutates+=("$2"); shift 2 ;;
	--timeout) need_value "$@"; timeout=$2; shift 2 ;;
	-h | --help) show_help ;;
	-*) echo "${0##*/}: unknown option $1" >&2; usage ;;
	*) specs+=("$1"); shift ;;
	esac
done
[ ${#specs[@]} -gt 0 ] || usage
is_kernel_tree "$target" || fail_setup "$target: not a kernel tree (make tree, or TREE=DIR)"
[ -f "$target/include/linux/lsm_hook_defs.h" ] ||
	fail_setup "$target: no include/linux/lsm_hook_defs.h (the target must have hook lists, 5.7 or later)"
# what step 2 extends (install_modules): named now, not a failed pipeline later
for f in security/Makefile security/Kconfig; do
	[ -f "$target/$f" ] || fail_setup "$target: no $f (the modules are installed through it)"
done
target=$(realpath "$target")
# The legacy baselines, in order (a module's legacy form is compared on the
# first one it builds on); none: no equivalence step.  Without --baseline:
# the rewound distro tree, then Linux 4.0 when make v21 has unpacked it
# (docs/porting.md section 4, "The baselines").
era=$LSMCONV_ROOT/build/v21/base
era_missing=''
if [ ${#baselines[@]} -eq 0 ]; then
	baselines=("$LSMCONV_ROOT/build/baseline")
	if [ -d "$era" ]; then
		baselines+=("$era")
	elif [ -f "$(realpath -m "$LSMCONV_ROOT/../shared")/trees/linux-4.0-v21base.tar.xz" ]; then
		era_missing="$era is absent: make v21 (or scripts/v21.sh --steps 1, seconds) unpacks Linux 4.0 from ../shared/trees; or --baseline TREE"
	else
		era_missing="$era is absent, and so is ../shared next to the repository, from which make v21 unpacks Linux 4.0: give --baseline TREE, a tree of the module's era"
	fi
fi
no_baseline="no legacy baseline: make baseline, or --baseline TREE"
case " ${baselines[*]} " in *" none "*) baselines=() no_baseline="--baseline none" ;; esac
legacy_baselines=()
for b in ${baselines[@]+"${baselines[@]}"}; do
	if is_kernel_tree "$b" && grep -q 'struct security_operations {' "$b/include/linux/security.h" 2>/dev/null &&
		[ -f "$b/security/Makefile" ] && [ -f "$b/security/Kconfig" ]; then
		legacy_baselines+=("$(realpath "$b")")
	else
		warn "$b: no legacy baseline (no struct security_operations, or no security/Makefile and Kconfig; make baseline makes build/baseline): not used"
	fi
done

# --- modules -----------------------------------------------------------
names=() srcs=() tests=() fins=()
for spec in "${specs[@]}"; do
	dir=${spec%%:*}
	name=${spec#"$dir"}
	name=${name#:}
	[ -d "$dir" ] || fail_setup "$dir: no such module directory"
	dir=$(realpath "$dir")
	[ -n "$name" ] || name=$(basename "$dir" | tr -c 'A-Za-z0-9_\n' '_')
	[[ $name =~ ^[a-z][a-z0-9_]*$ ]] ||
		fail_setup "$name: a module name must be lower case letters, digits, '_' (give MODULE:NAME or NAME=)"
	[ ! -e "$target/security/$name" ] ||
		fail_setup "$name: $target/security/$name exists already; pick another name (MODULE:NAME or NAME=)"
	case " ${names[*]} " in *" $name "*) fail_setup "$name: given twice" ;; esac
	src=$dir
	if [ -d "$dir/legacy" ]; then src=$dir/legacy; fi
	compgen -G "$src/*.c" >/dev/null || fail_setup "$src: no .c files"
	fin=''
	if [ "$finished" = 1 ]; then
		[ -d "$dir/finished" ] || fail_setup "--finished: $dir/finished does not exist"
		fin=$dir/finished
	fi
	names+=("$name") srcs+=("$src") fins+=("$fin")
	if [ -d "$dir/tests" ]; then tests+=("$dir/tests"); else tests+=(''); fi
done
for mutate in ${mutates[@]+"${mutates[@]}"}; do
	case " ${names[*]} " in *" ${mutate%%:*} "*) ;; *) fail_setup "--mutate-drop $mutate: no module ${mutate%%:*}" ;; esac
done
lock_wait=${LSMCONV_LOCK_WAIT:-3600}
[[ $lock_wait =~ ^[0-9]+$ ]] || fail_setup "LSMCONV_LOCK_WAIT=$lock_wait: not a number of seconds"
work=$(realpath -m "$work")
kbase=$(basename "$work")
on_interrupt port_cleanup
lock_dir "$work" "$lock_wait"
# Outside build/ the kernels' object directories are build/kernels/NAME
# (kbuild_objdir), shared by every --work of that basename.
case $work/ in "$LSMCONV_ROOT"/build/*) ;; *) lock_dir "$LSMCONV_ROOT/build/kernels/$kbase-port" "$lock_wait" ;; esac
[ -d "$work" ] || work_new=1
locked=1
mkdir -p "$work"
n=${#names[@]}
STEPS=6
results=()
status=0
note() { results+=("$1"); }
failed() { results+=("$1"); status=$EXIT_FAILED; }

# --- 1. convert ----------------------------------------------------------
# todo_count ITEMS: the number of todos in a conversion's items (never read
# from the Markdown report).
todo_count() {
	local c
	c=$(PYTHONPATH=$LSMCONV_ROOT/cocci python3 -m lsmconv.items count "$1") ||
		{ echo "an unknown number of (no readable items: $1)"; return 0; }
	awk '$1 == "todo" { n = $2 } END { print n + 0 }' <<<"$c"
}
# convert.sh's results by the hash of the input, the rules and every target
# file the conversion read (lsmconv.port, lsmconv.source's record): a rerun
# (the mutation, the finished/ port) does not parse the same sources again,
# and an edited tree is converted again.
export LSMCONV_PORT_CACHE=${LSMCONV_PORT_CACHE:-$work/convert-cache}
mkdir -p "$LSMCONV_PORT_CACHE"
progress 1 $STEPS "converting ${names[*]} for $(kernel_version "$target")"
if "$LSMCONV_ROOT/convert.sh" --help 2>&1 | grep -q "convert.sh port "; then port_mode=1; else port_mode=0; fi
for i in $(seq 0 $((n - 1))); do
	name=${names[$i]} src=${srcs[$i]}
	out=$work/$name/converted
	rm -rf "$out"
	rm -f "$work/$name/items.jsonl"
	mkdir -p "$out"
	rc=0
	if [ $port_mode = 1 ]; then
		bg_run "$LSMCONV_ROOT/convert.sh" port "$src" --target "$target" --name "$name" \
			--out "$out" --report "$work/$name/report.md" --items "$work/$name/items.jsonl" \
			>"$work/$name/convert.log" 2>&1 || rc=$?
	else
		mapfile -t files < <(find "$src" -maxdepth 1 -name '*.[ch]' | sort)
		bg_run "$LSMCONV_ROOT/convert.sh" file "${files[@]}" --target "$target" \
			--out "$out" --report "$work/$name/report.md" --items "$work/$name/items.jsonl" \
			>"$work/$name/convert.log" 2>&1 || rc=$?
	fi
	case $rc in
	0) echo "  $name: converted, nothing left for a human" >&2 ;;
	1) echo "  $name: converted, $(todo_count "$work/$name/items.jsonl") todo(s) left (report: $work/$name/report.md)" >&2 ;;
	*) sed 's/^/    /' "$work/$name/convert.log" | tail -n 20 >&2
	   fail_setup "$name: convert.sh failed (exit $rc)$(kept "$work/$name/convert.log")" ;;
	esac
	# Files the converter did not change are not written: copy them.
	for f in "$src"/*.[ch]; do
		[ -e "$f" ] || continue
		[ -e "$out/$(basename "$f")" ] || cp "$f" "$out/"
	done
done

# With --finished: finished/ is the maintainer's port, written for one
# target.  It is ported again to this one: a no-op when it is already in the
# target's form (exit 0, unchanged), the registration form of a later
# target otherwise (a 6.1-form module on 6.12 gets its struct lsm_id).
fsrc=()
for i in $(seq 0 $((n - 1))); do
	fsrc+=("${fins[$i]}")
	if [ -z "${fins[$i]}" ] || [ $port_mode = 0 ]; then continue; fi
	name=${names[$i]}
	fp=$work/$name/finished-port
	rm -rf "$fp"
	rm -f "$work/$name/finished-items.jsonl"
	rc=0
	bg_run "$LSMCONV_ROOT/convert.sh" port "${fins[$i]}" --target "$target" --name "$name" --out "$fp" \
		--report "$work/$name/finished-report.md" --items "$work/$name/finished-items.jsonl" \
		>"$work/$name/finished-port.log" 2>&1 || rc=$?
	case $rc in
	0) ;;
	1) echo "  $name: finished/ on $(kernel_version "$target"): $(todo_count "$work/$name/finished-items.jsonl") todo(s) for this target (report: $work/$name/finished-report.md)" >&2 ;;
	*) sed 's/^/    /' "$work/$name/finished-port.log" | tail -n 20 >&2
	   fail_setup "$name: convert.sh port of finished/ failed (exit $rc)$(kept "$work/$name/finished-port.log")" ;;
	esac
	fins[i]=$fp
done

# With --finished: how the hand-finished port differs from the tool output
# (informational: every hunk a todo named, or the ones none did).
for i in $(seq 0 $((n - 1))); do
	[ -n "${fins[$i]}" ] || continue
	name=${names[$i]}
	rc=0
	PYTHONPATH=$LSMCONV_ROOT/cocci python3 -m lsmconv.finishcheck --tool "$work/$name/converted" \
		--finished "${fins[$i]}" --items "$work/$name/items.jsonl" \
		--edits "${fsrc[$i]}/EDITS.tsv" >"$work/$name/finished-diff.tsv" || rc=$?
	echo "  $name: finished/ differs from the tool output in $(grep -c '' "$work/$name/finished-diff.tsv" || true) hunk(s), $(grep -c '^unnamed' "$work/$name/finished-diff.tsv" || true) of them named by no todo" >&2
	sed -n 's/^unnamed\t/    not named by a todo: /p' "$work/$name/finished-diff.tsv" >&2
	[ $rc -lt 2 ] || fail_setup "$name: finished-diff check failed (exit $rc)"
done

# --- scratch trees -------------------------------------------------------
# replace FILE: stdin becomes FILE only when it differs (mtime kept, so the
# build stays incremental; a new inode, so a hard-linked original is safe).
replace() {
	local f=$1 tmp
	tmp=$(mktemp "$f.lsmconv-tmp.XXXXXX")
	cat >"$tmp"
	if [ -f "$f" ] && cmp -s "$tmp" "$f"; then rm -f "$tmp"; else mv -f "$tmp" "$f"; fi
}

# scratch ORIG COPY: a hard-linked copy of a kernel tree without .git and
# without its object directories (tree_copy_skips, scripts/lib.sh): a build
# in the copy would write through the links into ORIG's objects.
scratch() {
	local orig=$1 copy=$2 e
	if [ ! -f "$copy/.lsmconv-scratch" ] || [ "$(cat "$copy/.lsmconv-scratch")" != "$orig" ]; then
		echo "  copying $orig -> $copy (hard links)" >&2
		rm -rf "$copy"
		mkdir -p "$copy"
		for e in "$orig"/* "$orig"/.[!.]*; do
			[ -e "$e" ] || continue
			! tree_copy_skips "${e##*/}" || continue
			cp -al "$e" "$copy/"
		done
		echo "$orig" >"$copy/.lsmconv-scratch"
	fi
}

# install COPY ORIG NAME... : security/NAME/ from $work/NAME/build-src, wiring.
install_modules() {
	local copy=$1 orig=$2 m f
	shift 2
	local mods=("$@")
	# Remove module directories of an earlier run that are not wanted now.
	for d in "$copy"/security/*/.lsmconv-port; do
		[ -e "$d" ] || continue
		m=$(basename "$(dirname "$d")")
		case " ${mods[*]} " in *" $m "*) ;; *) rm -rf "${copy:?}/security/$m" ;; esac
	done
	for m in "${mods[@]}"; do
		[ ! -e "$orig/security/$m" ] || fail_setup "$m: $orig/security/$m exists already; pick another NAME"
		mkdir -p "$copy/security/$m"
		touch "$copy/security/$m/.lsmconv-port"
		for f in "$copy/security/$m"/*.[ch]; do
			[ -e "$f" ] || continue
			[ -e "$work/$m/build-src/$(basename "$f")" ] || rm -f "$f"
		done
		objs=''
		for f in "$work/$m/build-src"/*; do
			# shellcheck disable=SC2094 # $f is under $work, not the copy
			replace "$copy/security/$m/$(basename "$f")" <"$f"
			case $f in *.c) objs+=" $(basename "${f%.c}").o" ;; esac
		done
		{
			echo "# SPDX-License-Identifier: GPL-2.0"
			echo "# Written by lsmconv's make port."
			echo "obj-\$(CONFIG_SECURITY_${m^^}) := $m.o"
			[ "$objs" = " $m.o" ] || echo "$m-y :=$objs"
			echo "ccflags-y += -Werror=incompatible-pointer-types"
			[ ! -f "$work/$m/build-src/lsmconv-baseline-compat.h" ] ||
				echo "ccflags-y += -include \$(srctree)/security/$m/lsmconv-baseline-compat.h"
		} | replace "$copy/security/$m/Makefile"
		printf 'config SECURITY_%s\n\tbool "%s (ported by lsmconv)"\n\tdepends on SECURITY\n\thelp\n\t  The %s security module, ported by lsmconv make port.\n' \
			"${m^^}" "$m" "$m" | replace "$copy/security/$m/Kconfig"
	done
	# (4.0 writes the line without quotes)
	{
		sed '/^source "\{0,1\}security\/integrity\/Kconfig"\{0,1\}$/Q' "$orig/security/Kconfig"
		for m in "${mods[@]}"; do echo "source \"security/$m/Kconfig\""; done
		sed -n '/^source "\{0,1\}security\/integrity\/Kconfig"\{0,1\}$/,$p' "$orig/security/Kconfig"
	} | replace "$copy/security/Kconfig"
	grep -q "source \"security/${mods[0]}/Kconfig\"" "$copy/security/Kconfig" ||
		fail_setup "$orig/security/Kconfig: no 'source \"security/integrity/Kconfig\"' line to put the modules before"
	{
		cat "$orig/security/Makefile"
		for m in "${mods[@]}"; do echo "obj-\$(CONFIG_SECURITY_${m^^}) += $m/"; done
	} | replace "$copy/security/Makefile"
	# A target that counts its LSMs at compile time (lsm_count.h:
	# MAX_LSM_COUNT sizes the static-call slots) must count these too, or
	# the boot panics "Ran out of static slots".
	local cnt=include/linux/lsm_count.h
	if [ -f "$orig/$cnt" ]; then
		PYTHONPATH=$LSMCONV_ROOT/cocci python3 -m lsmconv.lsmid count "$orig/$cnt" "${mods[@]}" \
			>"$work/lsm_count.h" || fail_setup "$orig/$cnt: not the MAX_LSM_COUNT list lsmconv knows; count the modules by hand"
		replace "$copy/$cnt" <"$work/lsm_count.h"
	fi
}

# fragment FILE LSMORDER NAME...: LSMORDER empty for a tree without
# CONFIG_LSM (before 5.1).
fragment() {
	local f=$1 order=$2 m
	shift 2
	{
		echo "# Written by lsmconv's make port."
		echo "CONFIG_SECURITY=y"
		echo "CONFIG_SECURITYFS=y"
		echo "CONFIG_SECURITY_NETWORK=y"
		echo "CONFIG_SECURITY_PATH=y"
		for m in "$@"; do echo "CONFIG_SECURITY_${m^^}=y"; done
		[ -z "$order" ] || echo "CONFIG_LSM=\"$order\""
	} | replace "$f"
}

# build TREE KNAME FRAGMENT [SEED]: a baseline kernel, configured as make
# verify builds the baseline of that tree (legacy_fragments: base.config +
# baseline.config for the rewound distro tree, the 4.0-era majors compiled
# in, security= picks one; legacy-4.0.config for Linux 4.0) plus FRAGMENT
# (the legacy modules, and the CONFIG_LSM that lists them where the tree has
# one), so that ccache has nearly every object from make verify's build of
# the same tree; a new one starts from SEED's objects when given
# (build-kernel.sh --seed).  -k: one failing attempt shows the errors of
# every module.  Prints the bzImage path; 1 on a build failure.
# shellcheck disable=SC2317 # run through bg_run
build() {
	local frags=() f
	while IFS= read -r f; do frags+=(--fragment "$f"); done < <(legacy_fragments "$1")
	"$LSMCONV_ROOT/qemu-boot/build-kernel.sh" --tree "$1" --name "$2" --keep-going \
		"${frags[@]}" --fragment "$3" ${4:+--seed "$4"}
}

# build_target TREE KNAME FRAGMENT: the target kernel is the distro's kernel
# lsm (build-kernel.sh's fragments: base, lsm, the selftests') plus FRAGMENT,
# so the ported modules boot beside every LSM the distro config has.  A new
# one starts from the objects of the target's lsm kernel when that is built
# (make kernel, make boot): only security/ and what the config delta touches
# is compiled again (build-kernel.sh --seed).
# shellcheck disable=SC2317 # run through bg_run
build_target() {
	local frags=() f seed
	while IFS= read -r f; do frags+=(--fragment "$f"); done < <(lsm_fragments "$1")
	seed=$(kbuild_objdir "$target" "$(lsm_kernel_name "$target")")
	# LSMCONV_PORT_SEED=0: a cold build (make bench's figure)
	[ -d "$seed" ] && [ "${LSMCONV_PORT_SEED:-1}" != 0 ] || seed=''
	"$LSMCONV_ROOT/qemu-boot/build-kernel.sh" --tree "$1" --name "$2" "${frags[@]}" \
		--fragment "$3" ${seed:+--seed "$seed"}
}

# --- 2. into the target tree -------------------------------------------------
progress 2 $STEPS "installing ${names[*]} into a scratch copy of $target"
ttree=$work/target-tree
scratch "$target" "$ttree"
for i in $(seq 0 $((n - 1))); do
	name=${names[$i]}
	from=$work/$name/converted
	[ -z "${fins[$i]}" ] || from=${fins[$i]}
	rm -rf "$work/$name/build-src"
	mkdir -p "$work/$name/build-src"
	cp "$from"/*.[ch] "$work/$name/build-src/"
	for mutate in ${mutates[@]+"${mutates[@]}"}; do
		[ "${mutate%%:*}" = "$name" ] || continue
		hook=${mutate#*:}
		grep -q "LSM_HOOK_INIT($hook," "$work/$name/build-src"/*.c ||
			fail_setup "--mutate-drop $mutate: no LSM_HOOK_INIT($hook, ...) in $name"
		sed -i "/LSM_HOOK_INIT($hook,/d" "$work/$name/build-src"/*.c
		echo "  mutation: LSM_HOOK_INIT($hook, ...) dropped from $name" >&2
	done
done
install_modules "$ttree" "$target" "${names[@]}"
order=$(IFS=,; echo "${names[*]}")
fragment "$work/target.config" "$order" "${names[@]}"

# --- 3. build ------------------------------------------------------------------
progress 3 $STEPS "building $kbase-target (build-kernel.sh; a cold build takes 5-15 min, one seeded with the lsm kernel 1-3 min)"
# What the install step does not know (python3 -m lsmconv.buildprep, in each
# module's directory of the scratch tree): the files a module includes that
# are not .c/.h ("hooks.lst") are copied from its port; every header the
# target does not have (the report's include todos) gets an empty stub
# searched last (-idirafter), so that gcc stops at no missing header and
# every other error is seen; the module's own CONFIG_ options (config todos)
# go into its Kconfig, on with it.  A module is always compiled before a
# verdict.
stubbed=0
for i in $(seq 0 $((n - 1))); do
	name=${names[$i]}
	from=$work/$name/converted
	[ -z "${fins[$i]}" ] || from=${fins[$i]}
	PYTHONPATH=$LSMCONV_ROOT/cocci python3 -m lsmconv.buildprep --target "$target" \
		--module "$ttree/security/$name" --name "$name" --from "$from" >"$work/$name/buildprep.tsv" ||
		die "$name: preparing its build (python3 -m lsmconv.buildprep) failed"
	hs=$(sed -n 's/^stub\t\([^\t]*\)\t.*/\1/p' "$work/$name/buildprep.tsv" | sort -u | paste -sd' ' -)
	if [ -n "$hs" ]; then
		stubbed=$((stubbed + $(wc -w <<<"$hs")))
		echo "  $name: compiled with an empty stub for each header the target does not have (include todos of the report): $hs" >&2
	fi
	cs=$(sed -n 's/^config\t\([^\t]*\)\t.*/CONFIG_\1/p' "$work/$name/buildprep.tsv" | paste -sd' ' -)
	[ -z "$cs" ] || echo "  $name: its own options, on with it in security/$name/Kconfig (config todos of the report): $cs" >&2
done
t0=$(date +%s)
# (bg_run, the output to a file: a signal stops the build at once)
if bg_run build_target "$ttree" "$kbase-target" "$work/target.config" >"$work/target.bz"; then
	bz=$(tail -n 1 "$work/target.bz")
else
	echo "  build failed after $(($(date +%s) - t0)) s; attributing the errors to the report's todos" >&2
	bad=0 afail=0
	rm -f "$work"/*/attribution.tsv
	for i in $(seq 0 $((n - 1))); do
		name=${names[$i]}
		# Every error of the module, not only those make reached before it
		# stopped: compile its directory alone, -k, in the same O= dir.
		bg_run kbuild "$ttree" "$(kbuild_objdir "$ttree" "$kbase-target")" -k \
			"security/$name/" >"$work/$name/compile.log" 2>&1 || true
		# the summary (at most 10 errors named by a todo, every other
		# one) comes from buildattr itself: no pipe into head, which
		# under pipefail killed port.sh with SIGPIPE (141) on long outputs
		rc=0
		PYTHONPATH=$LSMCONV_ROOT/cocci python3 -m lsmconv.buildattr --log "$work/$name/compile.log" \
			--items "$work/$name/items.jsonl" --module-dir "security/$name" --target "$target" \
			--src "$work/$name/build-src" --tsv "$work/$name/attribution.tsv" --show 10 "$name" >&2 || rc=$?
		case $rc in
		0) ;;
		1) bad=1; echo "  $name: an LSM-API compile error the report did not name: the report gave a false all-clear" >&2 ;;
		*) afail=1; echo "  $name: the attribution of its errors failed (exit $rc)" >&2 ;;
		esac
	done
	# A file gcc stopped on (a fatal error: a header even the stubs did
	# not provide) was not compiled: its other errors are unknown, so no
	# verdict on the report can be given.
	nc=$(grep -h '^not-compiled' "$work"/*/attribution.tsv 2>/dev/null | cut -f2 | paste -sd' ' - || true)
	if [ $afail = 1 ]; then
		echo "port.sh: FAIL build: the errors could not be attributed to the report's todos (see above)" >&2
		exit "$EXIT_FAILED"
	elif [ -n "$nc" ]; then
		echo "port.sh: FAIL build: not compiled: gcc stopped at a fatal error in $nc (see above), so the errors after it are unknown and the report cannot be judged" >&2
		exit "$EXIT_FAILED"
	elif [ $bad = 1 ]; then
		echo "port.sh: FAIL build: unreported LSM-API errors (see above)" >&2
		exit "$EXIT_FAILED"
	elif ! grep -qh '' "$work"/*/attribution.tsv 2>/dev/null; then
		echo "port.sh: FAIL build: no error in the modules' directories; the kernel itself failed, see $(kbuild_objdir "$ttree" "$kbase-target")/build.log" >&2
		exit "$EXIT_FAILED"
	fi
	if [ "$stubbed" -gt 0 ]; then
		echo "port.sh: FAIL build: compiled with $stubbed missing header(s) stubbed (each an include todo of the report), and every LSM-API error is a todo of the report: finish those todos (docs/porting.md), then run make port again" >&2
	else
		echo "port.sh: FAIL build: every LSM-API error is a todo of the report: finish those todos (docs/porting.md), then run make port again" >&2
	fi
	exit "$EXIT_TODO"
fi
if [ "$stubbed" -gt 0 ]; then
	note "build target: built only with $stubbed missing header(s) stubbed ($(($(date +%s) - t0)) s): their includes are todos of the report; the sources as they are do not build"
	status=$EXIT_TODO
else
	note "build target: pass ($(($(date +%s) - t0)) s, $bz)"
fi
echo "  built in $(($(date +%s) - t0)) s" >&2

# --- 4. guest tests and boot -------------------------------------------------------
progress 4 $STEPS "booting with lsm=capability,$order"
# stage_tests DIR NAME...: the listing check and the modules' tests.
stage_tests() {
	local d=$1 m t f
	shift
	rm -rf "$d"
	mkdir -p "$d"
	{
		cat <<-'EOF'
		#!/bin/sh
		# Written by lsmconv make port: every ported module must be listed.
		lsms=$(cat /sys/kernel/security/lsm) || exit 1
		echo "lsm: $lsms"
		rc=0
		EOF
		for m in "$@"; do
			echo "case \",\$lsms,\" in *,$m,*) echo \"listed: $m\" ;; *) echo \"not listed: $m\"; rc=1 ;; esac"
		done
		echo "exit \$rc"
	} >"$d/port-listed"
	chmod +x "$d/port-listed"
}
tlist=()
guest=$work/guest
stage_tests "$guest" "${names[@]}"
for i in $(seq 0 $((n - 1))); do
	t=${tests[$i]}
	mt=()
	[ -n "$t" ] || { echo "  ${names[$i]}: no tests/ folder: only the listing is checked" >&2; continue; }
	for f in "$t"/*; do
		[ -e "$f" ] || continue
		case $f in
		*.c)
			b=$(basename "${f%.c}")
			gcc -static -O2 -Wall -Werror -I"$LSMCONV_ROOT/qemu-boot/guest" -o "$guest/$b" "$f" ||
				fail_setup "$f: does not compile"
			mt+=("$b") ;;
		*)
			if [ ! -f "$f" ] || [ ! -x "$f" ]; then continue; fi
			cp "$f" "$guest/"
			mt+=("$(basename "$f")") ;;
		esac
	done
	printf '%s\n' "${mt[@]}" >"$work/${names[$i]}/tests.list"
	tlist+=("${mt[@]}")
done
initrd=$work/initrd.cpio.gz
"$LSMCONV_ROOT/qemu-boot/build-initramfs.sh" --out "$initrd" --add "$guest/.:/lsmtest" >/dev/null
t0=$(date +%s)
tests_arg=$(IFS=,; echo "port-listed${tlist[*]:+,${tlist[*]}}")
rc=0
bg_run "$LSMCONV_ROOT/qemu-boot/run.sh" --kernel "$bz" --initrd "$initrd" --log "$work/target-boot.log" \
	--timeout "$timeout" --append "lsm=capability,$order lsmtest=$tests_arg" >"$work/target-boot.verdict" || rc=$?
verdict=$(cat "$work/target-boot.verdict")
echo "  $verdict ($(($(date +%s) - t0)) s, log: $work/target-boot.log)" >&2
sed -n 's/^# \(listed\|not listed\|lsm\): /    \1: /p' "$work/target-boot.log.tap" >&2 || true
if [ $rc = 0 ]; then
	note "boot target: pass (listed: ${names[*]}; tests: ${tlist[*]:-none})"
else
	failed "boot target: FAIL ($verdict)"
fi

# --- 5. equivalence on a legacy baseline --------------------------------------------
progress 5 $STEPS "equivalence: legacy form on a legacy baseline vs port on $(kernel_version "$target")"
# What a legacy baseline's API is, read from the tree.
# tree_initcall TREE: true when TREE defines security_initcall() itself (4.0:
# its modules run as written, security_module_enable() compares the ops
# struct's .name with security=); false for the rewound distro tree, which
# starts LSMs from DEFINE_LSM's table only (the compat header below).
tree_initcall() { grep -qs '^#define security_initcall(' "$1/include/linux/init.h"; }
# tree_lsm_option TREE: true when TREE has CONFIG_LSM (5.1 on).
tree_lsm_option() { grep -qs '^config LSM$' "$1/security/Kconfig"; }
# tree_name_max TREE: SECURITY_NAME_MAX (the longest name security= chooses), or empty.
tree_name_max() {
	sed -n 's/^#define[[:space:]]\+SECURITY_NAME_MAX[[:space:]]\+\([0-9]\+\).*/\1/p;T;q' \
		"$1/include/linux/security.h"
}
# tree_seed TREE: the newest finished kernel in TREE's own object directories
# (make v21's, make verify's): a new baseline kernel starts from its objects.
tree_seed() {
	local d best='' bt=0 t
	for d in "$1/$LSMCONV_OBJ_PREFIX"*; do
		[ -f "$d/arch/x86/boot/bzImage" ] || continue
		t=$(stat -c %Y "$d/arch/x86/boot/bzImage")
		[ "$t" -le "$bt" ] || { best=$d; bt=$t; }
	done
	echo "$best"
}
declare -A why=() idx=() keys=() bootas=()
pending=()
for i in $(seq 0 $((n - 1))); do
	name=${names[$i]}
	if [ ! -s "$work/$name/tests.list" ]; then
		note "equivalence $name: skipped (no guest tests to compare)"
		continue
	fi
	pending+=("$name")
	idx[$name]=$i
done
if [ ${#pending[@]} -gt 0 ] && [ ${#legacy_baselines[@]} -eq 0 ]; then
	note "equivalence: skipped ($no_baseline)"
	pending=()
fi
for b in ${legacy_baselines[@]+"${legacy_baselines[@]}"}; do
	[ ${#pending[@]} -gt 0 ] || break
	bid=$(kernel_version "$b")
	btree=$work/baseline-tree-$bid
	kname=$kbase-baseline-$bid
	native=0 order_opt=0
	if tree_initcall "$b"; then native=1; fi
	if tree_lsm_option "$b"; then order_opt=1; fi
	nmax=$(tree_name_max "$b")
	scratch "$b" "$btree"
	cand=()
	for name in "${pending[@]}"; do
		src=${srcs[${idx[$name]}]}
		as=$name
		if [ $native = 1 ]; then
			# the name this tree knows the module by: its ops struct's .name
			lname=$(PYTHONPATH=$LSMCONV_ROOT/cocci python3 -m lsmconv.lsmname legacy "$src"/*.[ch]) ||
				die "$name: reading its legacy name (python3 -m lsmconv.lsmname) failed"
			lname=${lname%%$'\n'*}
			as=${lname:-$name}
			if [ -n "$nmax" ] && [ ${#as} -gt "$nmax" ]; then
				why[$name]+="; $bid: its name '$as' is longer than the tree's SECURITY_NAME_MAX ($nmax), security= cannot choose it"
				continue
			fi
		fi
		# A legacy form that did not build here before is not tried again
		# while its sources and the baseline are the same.
		key=$( (cat "$src"/*.[ch]; echo "$b") | sha256sum | cut -d' ' -f1)
		bf=$work/$name/baseline-fail-$bid
		if [ -f "$bf" ] && [ "$(head -n 1 "$bf")" = "$key" ]; then
			why[$name]+="; $bid: $(tail -n 1 "$bf") (cached)"
			continue
		fi
		rm -f "$bf"
		rm -rf "$work/$name/build-src"
		mkdir -p "$work/$name/build-src"
		cp "$src"/*.[ch] "$work/$name/build-src/"
		# The rewound distro tree starts LSMs from 6.1's lsm_info table; a
		# 4.x security_initcall() becomes an entry of it.  That table
		# already runs only the major chosen by security=, so the module's
		# own security_module_enable() check is answered yes: the
		# baseline's copy compares against 4.0's SECURITY_NAME_MAX (10)
		# characters and would refuse a longer name (unlinkguard) that 6.1
		# accepts.  A tree of the module's era (4.0) runs it as written.
		if [ $native = 0 ]; then
			printf '/* Written by lsmconv make port: security_initcall() on the rewound baseline. */\n#include <linux/lsm_hooks.h>\n#define security_initcall(fn) DEFINE_LSM(%s) = { .name = "%s", .flags = LSM_FLAG_LEGACY_MAJOR, .init = fn }\n#define security_module_enable(ops) 1\n' \
				"$name" "$name" >"$work/$name/build-src/lsmconv-baseline-compat.h"
		fi
		cand+=("$name")
		keys[$name]=$key bootas[$name]=$as
	done
	seed=$(tree_seed "$b")
	bbz=''
	while [ ${#cand[@]} -gt 0 ]; do
		install_modules "$btree" "$b" "${cand[@]}"
		order=''
		[ $order_opt = 0 ] || order=$(IFS=,; echo "${cand[*]}")
		fragment "$work/baseline-$bid.config" "$order" "${cand[@]}"
		echo "  building $kname ($b) with the legacy ${cand[*]}" >&2
		t0=$(date +%s)
		blog=$(kbuild_objdir "$btree" "$kname")/build.log
		if bg_run build "$btree" "$kname" "$work/baseline-$bid.config" "$seed" >"$work/baseline-$bid.bz"; then
			bbz=$(tail -n 1 "$work/baseline-$bid.bz")
			echo "  built in $(($(date +%s) - t0)) s" >&2
			break
		fi
		bbz=''
		# Drop every module with an error in its directory, say why, retry.
		keep=()
		for m in "${cand[@]}"; do
			w=$(grep -m1 -E "security/$m/[^:]+:[0-9]+:([0-9]+:)? (fatal )?error:" "$blog" || true)
			if [ -n "$w" ]; then
				why[$m]+="; $bid: ${w##*/security/}"
				printf '%s\n%s\n' "${keys[$m]}" "${w##*/security/}" >"$work/$m/baseline-fail-$bid"
			else
				keep+=("$m")
			fi
		done
		if [ ${#keep[@]} -eq ${#cand[@]} ]; then
			failed "equivalence: the baseline $b does not build, and not because of a module (see $blog)"
			cand=()
			break
		fi
		cand=("${keep[@]}")
	done
	left=()
	for m in "${pending[@]}"; do
		case " ${cand[*]} " in *" $m "*) ;; *) left+=("$m") ;; esac
	done
	pending=(${left[@]+"${left[@]}"})
	for m in ${cand[@]+"${cand[@]}"}; do
		mapfile -t mt <"$work/$m/tests.list"
		# Before 4.15 no LSM list says which module is active: the tests take
		# the major security= chose (lsmtest.h); lsmtest_major= tells them
		# when the tree knows the module by another name than theirs.
		boot="security=${bootas[$m]}"
		[ "${bootas[$m]}" = "$m" ] || boot+=" lsmtest_major=$m"
		# (run.sh passes no_timer_check to every boot: 4.0's timer check
		# can miss under TCG on a loaded host and panic)
		rc=0
		t0=$(date +%s)
		bg_run "$LSMCONV_ROOT/qemu-boot/run.sh" --kernel "$bbz" --initrd "$initrd" --log "$work/$m/baseline-boot.log" \
			--timeout "$timeout" --append "$boot lsmtest=$(IFS=,; echo "${mt[*]}")" >"$work/$m/baseline-boot.verdict" || rc=$?
		v=$(cat "$work/$m/baseline-boot.verdict")
		echo "  $m on $bid ($boot): $v ($(($(date +%s) - t0)) s)" >&2
		# a guest test that failed (1) still printed its decisions; a
		# panic, timeout or no output (run.sh's 2-5) compares nothing
		if [ $rc -ge 2 ]; then
			failed "equivalence $m: FAIL, its legacy form did not boot to its tests on $bid ($v)"
			continue
		fi
		crc=0
		"$LSMCONV_ROOT/verify/compare.sh" --lsm "$m" "$work/$m/baseline-boot.log.tap" \
			"$work/target-boot.log.tap" >"$work/$m/compare.txt" 2>&1 || crc=$?
		sed 's/^/    /' "$work/$m/compare.txt" >&2
		if [ $crc = 0 ]; then
			note "equivalence $m: pass, legacy form on $bid ($b, $boot) vs port ($(tail -n 1 "$work/$m/compare.txt"))"
		else
			failed "equivalence $m: FAIL, decisions differ (legacy on $bid vs port): $(grep -c differs "$work/$m/compare.txt" || true) case(s), see $work/$m/compare.txt"
		fi
	done
done
for m in ${pending[@]+"${pending[@]}"}; do
	w=${why[$m]:-}
	w=${w#; }
	if [ -n "$era_missing" ]; then w+="${w:+; }no baseline of its era: $era_missing"; fi
	note "equivalence $m: not possible, its legacy form builds on no legacy baseline: $w"
done

# --- 6. summary ------------------------------------------------------------------
progress 6 $STEPS "summary"
for r in "${results[@]}"; do echo "$r"; done
if [ "$status" = 0 ]; then echo "port.sh: PASS ${names[*]}"; else echo "port.sh: FAIL ${names[*]}"; fi
exit "$status"

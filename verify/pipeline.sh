#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make verify: prove a stacking series on the pre-stacking baseline.
#
# usage: verify/pipeline.sh --baseline DIR --series DIR (--distro TREE | --own)
#          [--work DIR] [--config FRAG] [--steps LIST] [--majors LIST]
#          [--mutation NAME] [--converted TREE] [--reference-kernel BZIMAGE]
#          [--ends] [--jobs N] [--force]
#
# --ends: step 2 builds the baseline and the final tree only, not every
# patch between them (make check's time budget).
#
# --own: the series stacks the baseline in its own version (make v21): the
# kernels are configured with the tree's own fragments (legacy_fragments,
# scripts/lib.sh; --config is ignored), step 3 has no distro tree to compare
# with (make v21 compares with the v21 patches instead), step 4 boots the
# converted kernel with security=X too (no lsm= before 5.1), and step 5 is
# step 4's: capability, Yama (stacked) and one major are all there is.
#
#   1 apply     the series (DIR/*.patch, the 0000 cover letter aside) with
#               git am onto a fresh clone of the baseline (WORK/converted)
#   2 build     the baseline and the tree after every patch, incrementally in
#               one O= dir (WORK/converted/.lsmconv-obj-bisect: in the tree,
#               so ccache shares objects with other copies of it, see
#               scripts/lib.sh), with base.config + FRAG
#               (default qemu-boot/config/baseline.config); names the first
#               failing patch and the compiler's first error file:line
#   3 fixpoint  the final tree against the distro tree in security/ and
#               include/linux/{security,lsm_hooks,lsm_hook_defs}.h: lines
#               differing ignoring whitespace must be 0; exact count reported
#   4 equiv     per major, the baseline kernel (security=X) and the converted
#               kernel (lsm=capability,yama,X) run the behaviour suite with
#               the real policies; compare.sh must find no difference.  The
#               suite is built for the converted tree (make -C verify TREE=
#               O=WORK/suite: the tree's policy version, classes, AppArmor
#               features, TOMOYO profile version, expectations)
#   5 stack     the final tree with base.config + lsm.config + the tree's
#               selftest fragments (as the distro kernel lsm) boots each stack
#               of qemu-boot/variants.tsv and passes the suite and the tree's
#               Landlock selftests
#
# A step whose input is missing is skipped with the reason; the others still
# run.  Prints a summary table (step, result, time) and writes WORK/report.md
# (default WORK: build/verify).  Exit 3 (EXIT_FAILED) if a step failed, else 0;
# 2 for usage or setup errors.
#
# WORK must be absent, empty or made by lsmconv (.lsmconv-out in it), else
# --force (never /, $HOME or the repository); one run at a time per WORK
# (flock); SIGINT/SIGTERM stop every child (make, QEMU) and exit 130/143.
#
# Test hooks (tests/pipeline/run.sh):
#   --mutation NAME       apply row NAME of verify/mutations.tsv to the final
#                         tree as one more commit (built like a patch); logs
#                         and report go to WORK/mutations/NAME/
#   --converted TREE      a stand-in: use TREE's HEAD as the final converted
#                         tree (no series); step 2 builds only that tree
#   --reference-kernel BZ the reference of step 4 instead of the baseline
#                         kernel built by step 2 (booted with security=X too)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

R=$LSMCONV_ROOT
NSTEPS=5
STEP_TITLES=("" "apply series (git am)" "build every patch" "fixed point vs distro"
	"equivalence (traces)" "full stack + Landlock")

usage() {
	sed -n '4,8p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

baseline='' series='' distro='' work=$R/build/verify
frag=$R/qemu-boot/config/baseline.config
steps=1,2,3,4,5 majors=$(lsm_majors | paste -sd, -)
mutation='' converted='' refkernel='' jobs=$(nproc) force=0 own=0 ends=0
parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--baseline) need_value "$@"; baseline=$2; shift 2 ;;
		--series) need_value "$@"; series=$2; shift 2 ;;
		--distro) need_value "$@"; distro=$2; shift 2 ;;
		--own) own=1; shift ;;
		--ends) ends=1; shift ;;
		--work) need_value "$@"; work=$2; shift 2 ;;
		--config) need_value "$@"; frag=$2; shift 2 ;;
		--steps) need_value "$@"; steps=$2; shift 2 ;;
		--majors) need_value "$@"; majors=$2; shift 2 ;;
		--mutation) need_value "$@"; mutation=$2; shift 2 ;;
		--converted) need_value "$@"; converted=$2; shift 2 ;;
		--reference-kernel) need_value "$@"; refkernel=$2; shift 2 ;;
		--jobs) need_value "$@"; jobs=$2; shift 2 ;;
		--force) force=1; shift ;;
		-h | --help) show_help ;;
		*) usage ;;
		esac
	done
	if [ -z "$baseline" ] && [ -z "$converted" ]; then usage; fi
	if [ -z "$series" ] && [ -z "$converted" ]; then usage; fi
	if [ "$own" -eq 1 ]; then
		[ -z "$distro" ] || die_usage "--own and --distro exclude each other"
	else
		[ -n "$distro" ] || usage
		distro=$(realpath -m "$distro")
	fi
	[ -f "$frag" ] || die_usage "$frag: no such config fragment"
	[ -z "$mutation" ] || check_mutation "${baseline:-$converted}"
	frag=$(realpath "$frag")
	# The fragments of every kernel of steps 2 and 4: base.config + FRAG, or
	# with --own the tree's own (legacy_fragments, scripts/lib.sh).
	if [ "$own" -eq 1 ]; then
		mapfile -t FRAGS < <(legacy_fragments "${baseline:-$converted}")
	else
		FRAGS=("$R/qemu-boot/config/base.config" "$frag")
	fi
	# git -C runs elsewhere: every path absolute.
	[ -z "$series" ] || series=$(realpath -m "$series")
	[ -z "$baseline" ] || baseline=$(realpath -m "$baseline")
	work=$(realpath -m "$work")
	# What pipeline.sh and make -C verify write there: with --force, a --work
	# lsmconv did not make must hold none of them (guard_out, scripts/lib.sh).
	guard_out "$work" .lsmconv-out "$force" --work converted kernels logs traces mutations \
		selftests report.md notes.md '*.bzImage' '*.log' lsmverify gen-classmap selinux \
		apparmor smack tomoyo
	lock_dir "$work"
	on_interrupt ''
	mkdir -p "$work"
	[ -e "$work/.lsmconv-out" ] ||
		echo "Work directory of lsmconv (verify/pipeline.sh); the next run reuses it." >"$work/.lsmconv-out"
	tree=$work/converted
	kdir=$work/kernels
	out=$work
	[ -z "$mutation" ] || out=$work/mutations/$mutation
	rm -rf "$out/logs" "$out/traces"
	mkdir -p "$out/logs" "$out/traces" "$kdir"
}

# --- bookkeeping -------------------------------------------------------------
declare -a RESULT DETAIL SECS
T0=0
begin() {	# begin N: progress line, start the clock
	progress "$1" "$NSTEPS" "${STEP_TITLES[$1]}"
	T0=$(date +%s)
}
record() {	# record N pass|fail|skip DETAIL
	RESULT[$1]=$2
	DETAIL[$1]=$3
	SECS[$1]=$(($(date +%s) - T0))
	printf '[%s/%s] %s: %s%s\n' "$1" "$NSTEPS" "${STEP_TITLES[$1]}" "$2" "${3:+ ($3)}" >&2
}
selected() { case ",$steps," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
note() { echo "$*" >>"$out/notes.md"; }

g() { lsmconv_git -C "$tree" "$@"; }	# lib.sh: reproducible git

# --- step 1: the tree ----------------------------------------------------------
base='' stand_in=false no_tree='step 1 was not run'
fresh_clone() {	# fresh_clone SRC: WORK/converted = SRC's HEAD, mtimes kept
	fetch_base "$1"
	reset_to "$base"
}
fetch_base() {	# fetch_base SRC: clone or fetch; base = SRC's HEAD commit
	if [ -d "$tree/.git" ]; then
		g am --abort >/dev/null 2>&1 || true
		g fetch -q --no-tags "$1" HEAD
		base=$(g rev-parse FETCH_HEAD)
	else
		rm -rf "$tree"
		lsmconv_git clone -q "$1" "$tree"
		base=$(g rev-parse HEAD)
	fi
}
reset_to() {	# only the files that differ are rewritten
	g checkout -q -f --detach "$1"
	g reset -q --hard "$1"
	g clean -q -fdx -e "/$LSMCONV_OBJ_PREFIX*"
}

# The same baseline and patches as last time: go back to that result (the
# mutation, if any, is applied on top again) instead of git am again (which would touch every patched file and
# make the next build rebuild all that includes security.h).
APPLY_KEY=''
reuse_applied() {
	local prev commit
	[ $# -gt 0 ] || return 1
	APPLY_KEY=$( { echo "$base"; cat "$@"; } | sha256sum | cut -c1-16)
	[ -f "$tree/.git/lsmconv-applied" ] || return 1
	read -r prev commit <"$tree/.git/lsmconv-applied"
	[ "$prev" = "$APPLY_KEY" ] && g cat-file -e "$commit^{commit}" 2>/dev/null || return 1
	reset_to "$commit"
}

series_patches() {
	find "$series" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' 2>/dev/null | sort
}

mutation_row() {	# the row of --mutation in verify/mutations.tsv
	awk -F'\t' -v n="$mutation" '!/^#/ && $1 == n' "$R/verify/mutations.tsv"
}
check_mutation() {	# check_mutation TREE: the row exists and is written for TREE's version
	local row versions v
	row=$(mutation_row)
	[ -n "$row" ] || die_usage "--mutation $mutation: no such row in verify/mutations.tsv"
	IFS=$'\t' read -r _ _ _ _ _ versions <<<"$row"
	[ -f "$1/Makefile" ] || return 0	# no tree there: step 1 says so
	v=$(awk -F' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		END { print v "." p }' "$1/Makefile")
	case " $versions " in
	*" $v "*) ;;
	*) die_usage "--mutation $mutation: the row is for ${versions:-no version}, $1 is $v" ;;
	esac
}

apply_mutation() {	# after the series: one more commit
	local file expr
	IFS=$'\t' read -r _ file expr _ _ _ <<<"$(mutation_row)"
	sed -i -e "$expr" "$tree/$file"
	if g diff --quiet; then
		die "mutation $mutation changed nothing in $file (does the tree still have the line?)"
	fi
	g commit -q -a -m "mutation: $mutation" -m "sed -e '$expr' $file"
	note "- mutation \`$mutation\`: \`sed -e '$expr' $file\`, committed on top as one more patch"
}

step_apply() {
	local p n=0
	if [ -n "$converted" ]; then
		if [ ! -d "$converted/.git" ]; then
			no_tree="--converted $converted: not a git repository"
			record 1 fail "$no_tree"
			return
		fi
		fresh_clone "$(realpath "$converted")"
		stand_in=true
		[ -z "$mutation" ] || apply_mutation
		record 1 skip "stand-in: $converted HEAD is the converted tree, no series applied"
		return
	fi
	if [ ! -d "$baseline/.git" ]; then
		no_tree="no baseline: cocci/rewind/rewind.sh has not produced $baseline"
		record 1 skip "$no_tree"
		return
	fi
	fetch_base "$(realpath "$baseline")"
	mapfile -t patches < <(series_patches)
	if reuse_applied "${patches[@]}"; then
		[ -z "$mutation" ] || apply_mutation
		record 1 pass "${#patches[@]} patches onto $(git -C "$baseline" rev-parse --short HEAD) (as applied before)"
		return
	fi
	reset_to "$base"
	if [ ${#patches[@]} -eq 0 ]; then
		record 1 skip "no series: $series has no NNNN-*.patch (the series generator has not written it); baseline cloned"
		return
	fi
	for p in "${patches[@]}"; do
		n=$((n + 1))
		if ! g am -q --keep-non-patch "$p" >"$out/logs/am.log" 2>&1; then
			g am --abort >/dev/null 2>&1 || true
			record 1 fail "patch $n/${#patches[@]} $(basename "$p") does not apply: $(grep -m1 -E 'error|failed' "$out/logs/am.log" || head -1 "$out/logs/am.log")"
			base='' no_tree="the series does not apply (step 1)"
			return
		fi
	done
	echo "$APPLY_KEY $(g rev-parse HEAD)" >"$tree/.git/lsmconv-applied"
	[ -z "$mutation" ] || apply_mutation
	record 1 pass "${#patches[@]} patches onto $(git -C "$baseline" rev-parse --short HEAD)"
}

# --- step 2: bisectable build --------------------------------------------------
kmake() {	# kmake ODIR ARGS...
	local o=$1
	shift
	bg_run kbuild "$tree" "$o" "$@"
}

configure() {	# configure ODIR STRICT FRAG...: kconfig (scripts/lib.sh); STRICT: none lost
	local o=$1 strict=$2
	shift 2
	kconfig "$tree" "$o" "$o/lost.now" "$@" || return 1
	cat "$o/lost.now" >>"$o/lost-options"
	[ "$strict" = false ] || [ ! -s "$o/lost.now" ]
}

first_error() {	# first_error LOG: "file:line: message" of the first error
	local e
	e=$(grep -a -m1 -E '^[^ ]+:[0-9]+(:[0-9]+)?: (fatal )?error:' "$1" ||
		grep -a -m1 -E 'undefined reference|Error [0-9]' "$1" || echo "unknown error, see $1")
	e=${e//"$tree/"/}
	e=${e#../}
	echo "$e" | sed -E 's/^([^ :]+:[0-9]+):[0-9]+:/\1:/'
}

base_bz='' conv_bz='' no_kernel='step 2 was not run'
step_build() {
	local o=$tree/${LSMCONV_OBJ_PREFIX}bisect commits c i=0 subj t th log errs=() hits calls
	if [ -z "$base" ]; then
		no_kernel="no kernel: $no_tree"
		record 2 skip "$no_tree"
		return
	fi
	mapfile -t commits < <(echo "$base"; g rev-list --reverse "$base..HEAD")
	# --ends: the baseline and the final tree only (make check's time; make
	# verify and make v21 build every patch)
	[ "$ends" -eq 0 ] || [ ${#commits[@]} -le 2 ] || commits=("${commits[0]}" "${commits[-1]}")
	local final=${commits[-1]}
	rm -f "$o/lost-options"
	mkdir -p "$o/done"
	echo "| # | commit | result | time | ccache hits |" >"$out/build-table.md"
	echo "|---|---|---|---|---|" >>"$out/build-table.md"
	for c in "${commits[@]}"; do
		subj=$(g log -1 --format=%s "$c")
		th=$(g rev-parse "$c^{tree}")-$(cat "${FRAGS[@]}" | sha256sum | cut -c1-12)
		log=$out/logs/build-$i.log
		t=$(date +%s)
		if [ "$c" != "$final" ] && [ -f "$o/done/$th" ] && { [ "$i" -gt 0 ] || $stand_in || [ -f "$kdir/baseline-$th.bzImage" ]; }; then
			progress 2 "$NSTEPS" "  patch $i/$((${#commits[@]} - 1)): cached build ok: $subj"
			echo "| $i | $subj | ok (built before) | 0 s | |" >>"$out/build-table.md"
			[ "$i" -gt 0 ] || base_bz=$kdir/baseline-$th.bzImage
			i=$((i + 1))
			continue
		fi
		progress 2 "$NSTEPS" "  patch $i/$((${#commits[@]} - 1)): building: $subj"
		g checkout -q --detach "$c"
		ccache_log_begin "$out/logs/ccache.log"
		if ! configure "$o" false "${FRAGS[@]}" ||
			! kmake "$o" -j"$jobs" bzImage >"$log" 2>&1; then
			cat "$o/build.log" >>"$log" 2>/dev/null || true
			echo "| $i | $subj | **fails** | $(($(date +%s) - t)) s | |" >>"$out/build-table.md"
			g checkout -q --detach "$final"
			no_kernel="no kernel: the build failed (step 2)"
			if [ "$i" -eq 0 ]; then
				record 2 fail "the baseline itself does not build ($subj): $(first_error "$log")"
			else
				record 2 fail "patch $i/$((${#commits[@]} - 1)) '$subj' breaks the build: $(first_error "$log")"
			fi
			return
		fi
		touch "$o/done/$th"
		read -r hits calls < <(ccache_log_count "$out/logs/ccache.log")
		echo "| $i | $subj | ok | $(($(date +%s) - t)) s | $hits of $calls |" >>"$out/build-table.md"
		if [ "$i" -eq 0 ] && ! $stand_in; then
			cp "$o/arch/x86/boot/bzImage" "$kdir/baseline-$th.bzImage"
			base_bz=$kdir/baseline-$th.bzImage
		fi
		i=$((i + 1))
	done
	g checkout -q --detach "$final"
	if ! $stand_in && [ "$i" -eq 1 ]; then
		no_kernel="no series applied (step 1): only the baseline was built"
		record 2 pass "baseline only (no series)"
		return
	fi
	conv_bz=$out/converted.bzImage
	cp "$o/arch/x86/boot/bzImage" "$conv_bz"
	[ ! -s "$o/lost-options" ] || mapfile -t errs < <(sort -u "$o/lost-options")
	[ ${#errs[@]} -eq 0 ] || note "- build: options of the fragments that olddefconfig dropped at some patch: ${errs[*]}"
	if $stand_in; then
		record 2 pass "stand-in tree built$([ "$i" -gt 1 ] && echo " + $((i - 1)) commit(s)")"
	else
		if [ "$ends" -eq 1 ]; then
			record 2 pass "baseline and the final tree build (--ends: the patches between not built)"
		else
			record 2 pass "baseline + $((i - 1)) patches, each builds"
		fi
	fi
}

# converted_tree N WHY: true when step 1 left a converted tree (a series
# applied, or the stand-in); else records step N skipped (WHY: what the
# baseline alone cannot show) and is false.
converted_tree() {
	if [ -z "$base" ]; then
		record "$1" skip "$no_tree"
		return 1
	fi
	if ! $stand_in && [ "$(g rev-parse HEAD)" = "$base" ]; then
		record "$1" skip "no series applied: $2"
		return 1
	fi
}

# --- step 3: fixed point ---------------------------------------------------------
FP_PATHS=(security include/linux/security.h include/linux/lsm_hooks.h include/linux/lsm_hook_defs.h)
step_fixpoint() {
	local p ws exact files
	if [ "$own" -eq 1 ]; then
		record 3 skip "--own: no distro tree to come back to (make v21 compares the series with the v21 patches: verify/v21cmp.py)"
		return
	fi
	converted_tree 3 "the baseline is not the converted tree" || return 0
	: >"$out/fixpoint.diff"
	: >"$out/fixpoint-w.diff"
	for p in "${FP_PATHS[@]}"; do
		diff -rN -u "$distro/$p" "$tree/$p" >>"$out/fixpoint.diff" 2>&1 || true
		diff -rN -u -w "$distro/$p" "$tree/$p" >>"$out/fixpoint-w.diff" 2>&1 || true
	done
	ws=$(grep -c -E '^[-+]([^-+]|$)' "$out/fixpoint-w.diff" || true)
	exact=$(grep -c -E '^[-+]([^-+]|$)' "$out/fixpoint.diff" || true)
	files=$(grep -c '^diff ' "$out/fixpoint.diff" || true)
	# Tokens: all whitespace ignored, line breaks too (spatch re-wraps the
	# argument lists it rewrites): this is what must be 0.
	"$R/verify/tokdiff.py" "$distro" "$tree" "${FP_PATHS[@]}" >"$out/fixpoint-tokens.diff" || true
	tok=$(tail -n 1 "$out/fixpoint-tokens.diff" | awk '{ print $1 }')
	FP_FIGURES="${tok:-?} token unit(s) differ; $ws line(s) differ ignoring whitespace (diff -w), $exact byte-exact, in $files file(s)"
	if [ "${tok:-1}" -eq 0 ]; then
		record 3 pass "$FP_FIGURES"
	else
		record 3 fail "$FP_FIGURES: $(grep '^--- a/' "$out/fixpoint-tokens.diff" | head -3 |
			sed 's@^--- a/@@' | paste -sd, -)"
	fi
}

# --- step 4: equivalence -----------------------------------------------------
# The behaviour suite is built for the tree under test (its policy version,
# SELinux classes, AppArmor features, TOMOYO profile version and per-version
# expectations: verify/Makefile) into a directory of this work's own.
suite=''
build_suite() {	# build_suite STEP: make -C verify for the converted tree
	suite=$work/suite
	make -s -C "$R/verify" TREE="$tree" O="$suite" >"$out/logs/verify-make.log" 2>&1 && return 0
	record "$1" fail "make -C verify TREE=$tree failed, see $out/logs/verify-make.log"
	return 1
}
# Traces of one kernel under the given stacks, cached by kernel, stacks and
# suite build: a mutation run reuses the reference's boots.
traces() {	# traces NAME BZ STACK...  -> prints the trace file
	local name=$1 bz=$2 key f
	shift 2
	key=$( { sha256sum <"$bz"; printf '%s\n' "$@";
		cat "$suite/lsmverify" "$suite"/expect/*.txt "$suite"/selinux/policy.bin \
			"$suite"/apparmor/profiles.bin "$suite"/smack/rules.txt \
			"$suite"/tomoyo/*.txt; } | sha256sum | cut -c1-16)
	f=$kdir/traces-$key.trace
	if [ ! -s "$f" ]; then
		local args=()
		for s in "$@"; do args+=(--stack "$s"); done
		"$R/verify/traces.sh" --kernel "$bz" --work "$out/traces/$name" "${args[@]}" \
			--tree "$tree" --suite "$suite" \
			>"$f.tmp" 2>"$out/logs/traces-$name.log" || true
		mv "$f.tmp" "$f"
	fi
	cp "$f" "$out/traces/$name.trace"
	echo "$out/traces/$name.trace"
}

step_equiv() {
	local ref refname m rs=() cs=() rt ct rc missing=()
	if [ -n "$refkernel" ]; then
		ref=$refkernel refname="reference kernel $(basename "$(dirname "$(dirname "$(dirname "$(dirname "$refkernel")")")")")"
	else
		ref=$base_bz refname=baseline
	fi
	if [ -z "$ref" ] || [ ! -f "$ref" ]; then
		record 4 skip "no baseline kernel: $no_kernel"
		return
	fi
	if [ -z "$conv_bz" ]; then
		record 4 skip "no converted kernel: $no_kernel"
		return
	fi
	build_suite 4 || return 0
	IFS=, read -ra ms <<<"$majors"
	for m in "${ms[@]}"; do
		rs+=("$m=security=$m")
		if [ "$own" -eq 1 ]; then
			cs+=("$m=security=$m")
		else
			cs+=("$m=lsm=capability,yama,$m")
		fi
	done
	rt=$(traces reference "$ref" "${rs[@]}")
	ct=$(traces converted "$conv_bz" "${cs[@]}")
	# Each major must have been active (its own cases present) on both sides.
	for m in "${ms[@]}"; do
		grep -q "^case $m/$m\." "$rt" || missing+=("$m inactive in $refname")
		grep -q "^case $m/$m\." "$ct" || missing+=("$m inactive in converted")
	done
	"$R/verify/compare.sh" "$rt" "$ct" >"$out/compare.txt" 2>&1 && rc=0 || rc=$?
	EQ_FIGURES=$(tail -1 "$out/compare.txt")
	if [ "$rc" -eq 0 ] && [ ${#missing[@]} -eq 0 ]; then
		record 4 pass "$refname (security=X) vs converted ($([ "$own" -eq 1 ] && echo security=X || echo lsm=capability,yama,X)), ${ms[*]}: $EQ_FIGURES"
	elif [ "$rc" -eq 1 ]; then
		record 4 fail "$(grep -c -E '^(differs|missing|duplicate)' "$out/compare.txt") difference(s): $(grep -E '^(differs|missing)' "$out/compare.txt" | head -4 | paste -sd';' -)${missing[*]:+; ${missing[*]}}"
	else
		record 4 fail "${missing[*]:-no comparison}: $EQ_FIGURES"
	fi
}

# --- step 5: full stack -----------------------------------------------------------
step_stack() {
	local o=$tree/${LSMCONV_OBJ_PREFIX}stack ll bz vname lsm want st=() bad=() tot v hits calls
	if [ "$own" -eq 1 ]; then
		record 5 skip "--own: the stack of its own version (capability, Yama stacked, one major) is what step 4 boots"
		return
	fi
	converted_tree 5 "the baseline has no stacking to prove" || return 0
	# A first stack build starts from step 2's objects of this tree (its last
	# build is the final commit): Kbuild compiles what the config change
	# touches (kbuild_seed, scripts/lib.sh).
	if [ ! -e "$o" ]; then
		note "- stack build: $(kbuild_seed "$tree" "$o" "$tree/${LSMCONV_OBJ_PREFIX}bisect")"
		rm -rf "$o/lost-options" "$o/done"
	fi
	# The fragments of the distro kernel lsm (build-kernel.sh's default), so
	# that ccache serves this build from it.
	local frags
	mapfile -t frags < <(lsm_fragments "$tree")
	if ! configure "$o" true "${frags[@]}"; then
		record 5 fail "lsm.config or a selftest fragment does not fit the converted tree: $(head -3 "$o/lost-options" 2>/dev/null | paste -sd';' -)"
		return
	fi
	ccache_log_begin "$out/logs/ccache.log"
	if ! kmake "$o" -j"$jobs" bzImage >"$out/logs/stack-build.log" 2>&1; then
		record 5 fail "the converted tree with every LSM does not build: $(first_error "$out/logs/stack-build.log")"
		return
	fi
	read -r hits calls < <(ccache_log_count "$out/logs/ccache.log")
	note "- stack build: $hits of $calls compilations from ccache"
	bz=$o/arch/x86/boot/bzImage
	if ! ll=$("$R/qemu-boot/build-selftests.sh" --tree "$tree" --suite landlock \
		--out "$work/selftests/landlock" 2>"$out/logs/selftests.log"); then
		record 5 fail "Landlock selftests do not build, see $out/logs/selftests.log"
		return
	fi
	while IFS=$'\t' read -r vname lsm want _; do
		st+=("$vname=lsm=$lsm lsmtest.lsm=$want")
	done < <(grep -v -e '^#' -e '^\s*$' "$R/qemu-boot/variants.tsv")
	build_suite 5 || return 0
	local args=()
	for s in "${st[@]}"; do args+=(--stack "$s"); done
	"$R/verify/traces.sh" --kernel "$bz" --work "$out/traces/stack" "${args[@]}" \
		--tree "$tree" --suite "$suite" \
		--tests lsm-list,landlock,capability,tomoyo,selinux,smack,apparmor,yama \
		--add "$ll:lsmtest/landlock.d" >"$out/traces/stack.trace" 2>"$out/logs/traces-stack.log" || true
	for s in "${st[@]}"; do
		vname=${s%%=*}
		v=$(cat "$out/traces/stack/$vname.verdict" 2>/dev/null || echo "verdict=none")
		case $v in verdict=pass*) ;; *) bad+=("$vname: ${v%% log=*}") ;; esac
		tot=$("$R/qemu-boot/selftest-totals.sh" "$out/traces/stack/$vname.log.tap" 2>/dev/null) ||
			bad+=("$vname: landlock $tot")
		note "- stack $vname (lsm=${s#*=lsm=}): ${v%% log=*}; Landlock selftests $tot"
	done
	STACK_FIGURES="${#st[@]} stacks, $(grep -c '^case' "$out/traces/stack.trace" || true) cases, Landlock $tot"
	if [ ${#bad[@]} -eq 0 ]; then
		record 5 pass "$STACK_FIGURES"
	else
		record 5 fail "$(printf '%s; ' "${bad[@]}")"
	fi
}

# --- summary ------------------------------------------------------------------------
summary() {
	local i total=0 status=0
	printf '\n%-3s %-26s %-5s %6s  %s\n' "#" "step" "result" "time" "detail"
	for i in $(seq 1 $NSTEPS); do
		total=$((total + ${SECS[$i]:-0}))
		[ "${RESULT[$i]}" != fail ] || status=$EXIT_FAILED
		printf '%-3s %-26s %-5s %5ss  %.90s\n' "$i" "${STEP_TITLES[$i]}" "${RESULT[$i]}" "${SECS[$i]:-0}" "${DETAIL[$i]}"
	done
	printf '%-3s %-26s %-5s %5ss\n' "" "total" "$([ $status -eq 0 ] && echo ok || echo FAIL)" "$total"
	echo "report: $out/report.md"
	return $status
}

report() {
	local i
	{
		echo "# make verify: report"
		echo
		echo "- baseline: ${baseline:-none}$( [ -n "$base" ] && echo " (tree at $(g rev-parse --short "$base"))")"
		echo "- series: ${series:-none}; converted tree: $tree"
		[ -z "$converted" ] || echo "- stand-in: \`--converted $converted\` (no series)"
		[ -z "$refkernel" ] || echo "- step 4 reference: \`$refkernel\`"
		echo "- distro tree: ${distro:-none (--own)}; config: $(for f in "${FRAGS[@]}"; do basename "$f"; done | paste -sd+ -)"
		echo "- $(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo
		echo "| step | result | time | detail |"
		echo "|---|---|---|---|"
		for i in $(seq 1 $NSTEPS); do
			echo "| $i ${STEP_TITLES[$i]} | ${RESULT[$i]} | ${SECS[$i]:-0} s | ${DETAIL[$i]//|/\\|} |"
		done
		if [ -f "$out/build-table.md" ]; then
			echo; echo "## Step 2: build after every patch"; echo
			cat "$out/build-table.md"
		fi
		if [ -s "$out/fixpoint-w.diff" ]; then
			echo; echo "## Step 3: files differing from the distro tree (ignoring whitespace)"; echo
			grep '^diff ' "$out/fixpoint-w.diff" | sed "s@.* $tree/@- @" | head -40
		fi
		if [ -f "$out/compare.txt" ]; then
			echo; echo "## Step 4: compare.sh reference converted"; echo
			echo '```'; head -40 "$out/compare.txt"; echo '```'
		fi
		if [ -f "$out/notes.md" ]; then
			echo; echo "## Notes"; echo
			cat "$out/notes.md"
		fi
	} >"$out/report.md"
}

main() {
	parse_args "$@"
	rm -f "$out/notes.md" "$out/build-table.md" "$out/compare.txt" "$out/fixpoint-w.diff"
	local i fn
	local fns=("" step_apply step_build step_fixpoint step_equiv step_stack)
	for i in $(seq 1 $NSTEPS); do
		fn=${fns[$i]}
		if selected "$i"; then
			begin "$i"
			"$fn"
		else
			T0=$(date +%s)
			RESULT[i]=skip DETAIL[i]="not selected (--steps $steps)" SECS[i]=0
			# Steps 2-5 need step 1's tree: prepare it without recording.
			if [ "$i" -eq 1 ]; then
				step_apply 2>/dev/null
				RESULT[1]=skip DETAIL[1]="not selected (--steps $steps)"
			fi
		fi
	done
	report
	summary
}

main "$@"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# series.sh - regenerate the stacking series from the pre-stacking baseline.
#
# usage: convert.sh series [--baseline DIR] [--target TREE | --own] [--out DIR]
#          [--signoff "Name <email>"] [--work DIR] [--jobs N] [--allow-partial]
#          [--force]
#
#   --baseline DIR  the rewound tree, a git work tree (default build/baseline,
#                   made by `make baseline`)
#   --target TREE   the distro tree: hooks and target API (default
#                   build/$LSMCONV_DISTRO, scripts/lib.sh)
#   --own           stack the baseline in its own version: no target, the
#                   framework is generated from the tree itself (v21's form)
#   --out DIR       where the series goes (default converted-patches/series;
#                   with --own build/own/series):
#                   0000-cover-letter.patch, NNNN-*.patch, report.md
#   --signoff ID    author and Signed-off-by (default: lsmconv's fixed
#                   identity "lsmconv <lsmconv@localhost>", scripts/lib.sh)
#   --work DIR      scratch clone of the baseline (default build/series; with
#                   --own build/own/work)
#   --force         write into an --out/--work that lsmconv did not make,
#                   beside the files there (never /, $HOME or the repository)
#   -h, --help      this text
#
# A directory is lsmconv's only when it holds lsmconv's marker (.lsmconv-out);
# --out and --work must be absent, empty or lsmconv's, or given with --force:
# then lsmconv writes beside the files there and refuses (exit 2) when one of
# them has a name it would write (NNNN-*.patch or report.md in --out; tree,
# logs, out.tmp, ... in --work).  In lsmconv's --out the previous series'
# NNNN-*.patch and report.md are replaced; every other file is kept.  --out,
# --work, the baseline and the target must be four separate directories,
# none inside another.  One run at a time per --work and --out (flock).
# --out changes only when the new series is complete, so a failed or
# interrupted run (SIGINT/SIGTERM: exit 130/143, "interrupted" on stderr,
# every child stopped, a --work it made removed) leaves it as it was.
#
# Each step (cocci/manifest.tsv: the steps, their subjects and what they
# run; body() below: their commit messages) runs lsmconv's tools on a clone
# of the baseline and becomes one commit (fixed dates), shaped like Casey Schaufler's v21
# "LSM: Multiple concurrent LSMs"; a step that changes nothing is left out
# and the cover letter says why.  The series is written by git format-patch
# with fixed hashes and no signature, so two runs give byte-identical files;
# scripts/checkpatch.pl of the target checks every patch (counts in
# report.md).  Exit 0 done, 1 something was left for a human (the series is
# still complete, the todos are in report.md, unless --allow-partial), 2
# usage or setup error (nothing written), 3 a step failed (--out unchanged;
# the step's log in --work named).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

R=$LSMCONV_ROOT
PROG=convert.sh-series

usage() {	# --help: the usage on stdout, exit 0
	sed -n '4,24s/^# \{0,1\}//p' "$0"
	exit 0
}
fail() {	# fail MESSAGE: usage or setup error, nothing written (exit 2)
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit "$EXIT_USAGE"
}
failed() {	# failed MESSAGE: a step failed after writing started (exit 3)
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit "$EXIT_FAILED"
}
# Any other way out (a command that failed under set -e, a bash error) is a
# failure, never 1 (todos left) or 0: exit 3.
todo_exit=0
on_exit() {
	local rc=$?
	case $rc in
	0 | "$EXIT_USAGE" | "$EXIT_FAILED" | "$EXIT_INT" | "$EXIT_TERM") return 0 ;;
	"$EXIT_TODO") [ "$todo_exit" -eq 0 ] || return 0 ;;
	esac
	printf '%s: error: stopped by an unexpected failure (exit %s, see above)\n' "$PROG" "$rc" >&2
	exit "$EXIT_FAILED"
}
trap on_exit EXIT

baseline=$R/build/baseline target=$LSMCONV_DISTRO_TREE own=0
out='' work=''
signoff='' jobs=$(nproc) allow_partial=0 force=0
parse_args() {
	local given_target=0
	while [ $# -gt 0 ]; do
		case $1 in
		--baseline) need_value "$@"; baseline=$2; shift 2 ;;
		--target) need_value "$@"; target=$2; given_target=1; shift 2 ;;
		--own) own=1; shift ;;
		--out) need_value "$@"; out=$2; shift 2 ;;
		--signoff) need_value "$@"; signoff=$2; shift 2 ;;
		--work) need_value "$@"; work=$2; shift 2 ;;
		--jobs) need_value "$@"; jobs=$2; shift 2 ;;
		--allow-partial) allow_partial=1; shift ;;
		--force) force=1; shift ;;
		-h | --help) usage ;;
		*) fail "unknown argument '$1' (see --help)" ;;
		esac
	done
	[[ $jobs =~ ^[1-9][0-9]*$ ]] || fail "--jobs '$jobs': expected a number of at least 1"
	if [ -n "$signoff" ]; then
		check_signoff
	fi
	[ -d "$baseline" ] || fail "$baseline: no baseline (run make baseline)"
	is_kernel_tree "$baseline" || fail "$baseline: not a kernel tree"
	git -C "$baseline" rev-parse --verify -q HEAD >/dev/null ||
		fail "$baseline: not a git work tree with a commit (made by cocci/rewind/rewind.sh?)"
	grep -q 'struct security_operations' "$baseline/include/linux/security.h" "$baseline/include/linux/lsm_hooks.h" 2>/dev/null ||
		fail "$baseline/include/linux/security.h: no struct security_operations: not a pre-stacking (legacy) tree"
	if [ "$own" -eq 1 ]; then
		[ "$given_target" -eq 0 ] || fail "--own and --target exclude each other"
		target=''
		[ -n "$out" ] || out=$R/build/own/series
		[ -n "$work" ] || work=$R/build/own/work
	else
		[ -d "$target" ] || fail "--target $target: no such directory"
		is_kernel_tree "$target" || fail "--target $target: not a kernel tree"
		# what forward.py and convert.sh read of the target
		local f
		for f in include/linux/lsm_hook_defs.h include/linux/lsm_hooks.h include/linux/security.h \
			security/security.c security/commoncap.c security/Kconfig; do
			[ -f "$target/$f" ] || fail "--target $target: no $f: not a stacked kernel tree"
		done
		target=$(realpath "$target")
	fi
	[ -n "$out" ] || out=$R/converted-patches/series
	[ -n "$work" ] || work=$R/build/series
	# Not git config's identity: the series must be the same bytes on
	# every machine (scripts/lib.sh, lsmconv_git).
	[ -n "$signoff" ] || signoff="$LSMCONV_GIT_NAME <$LSMCONV_GIT_EMAIL>"
	check_signoff
	baseline=$(realpath "$baseline")
	out=$(realpath -m "$out") work=$(realpath -m "$work")
}

# check_paths: --out and --work apart from each other and from the trees
# read (the baseline, the target): none is another or inside another.
# The same path, or one inside another, is named here with the options;
# then lsmconv.fsio check-paths (the one output-safety layer) compares them
# by inode too (a bind mount, another name of the same directory).
check_paths() {
	local -a name=(--out --work --baseline) path=("$out" "$work" "$baseline") ins=()
	local i j
	[ -z "$target" ] || { name+=(--target); path+=("$target"); }
	for i in "${path[@]:2}"; do ins+=(--input "$i"); done
	for i in 0 1; do
		for j in $(seq $((i + 1)) $((${#path[@]} - 1))); do
			if [ "${path[$i]}" = "${path[$j]}" ]; then
				fail "${name[$i]} and ${name[$j]} are the same directory ($(shown "${path[$i]}")): give separate ones"
			elif inside "${path[$i]}" "${path[$j]}"; then
				fail "${name[$i]} $(shown "${path[$i]}") is inside ${name[$j]} $(shown "${path[$j]}"): give separate directories"
			elif inside "${path[$j]}" "${path[$i]}"; then
				fail "${name[$j]} $(shown "${path[$j]}") is inside ${name[$i]} $(shown "${path[$i]}"): give separate directories"
			fi
		done
	done
	PYTHONPATH="$R/cocci${PYTHONPATH:+:$PYTHONPATH}" python3 -m lsmconv.fsio check-paths \
		"${ins[@]}" --output "$out" --output "$work" >&2 || exit "$EXIT_USAGE"
}
inside() { case $1 in "$2"/*) return 0 ;; esac; return 1; }	# inside A B: A below B
shown() { printf '%s' "${1#"$R"/}"; }

check_signoff() {
	[[ $signoff =~ ^[^\<\>]+\ \<[^\<\>@\ ]+@[^\<\>\ ]+\>$ ]] ||
		fail "--signoff '$signoff': expected \"Name <email>\""
}

# --- the steps ----------------------------------------------------------------
# manifest ARGS: lsmconv.manifest, the one reader of cocci/manifest.tsv.
manifest() {
	PYTHONPATH="$R/cocci${PYTHONPATH:+:$PYTHONPATH}" python3 -m lsmconv.manifest "$@"
}

# STEPS: the manifest's steps, in order, one "name<TAB>subject<TAB>commands"
# each ("forward STEP" = cocci/forward/forward.py STEP, "rules N,N" =
# convert.sh tree --rules N,N; ';' between commands, run in order).
declare -a STEPS
load_steps() {
	local out line
	out=$(manifest steps) || fail "cocci/manifest.tsv: cannot read the steps (see above)"
	[ -n "$out" ] || fail "cocci/manifest.tsv: no steps"
	mapfile -t STEPS <<<"$out"
	for line in "${STEPS[@]}"; do
		[ -n "$(body "${line%%$'\t'*}")" ] ||
			fail "cocci/manifest.tsv: step '${line%%$'\t'*}' has no commit-message body (body() in $0)"
	done
}

# body NAME: what the step does, for its commit message (wrapped at 72);
# NAME is a step of the manifest.
body() {
	case $1 in
	split) cat <<-'EOF'
		Move struct security_operations and the declarations of the legacy
		registration interface out of include/linux/security.h, which the
		whole kernel includes, into include/linux/lsm_hooks.h, which only
		the security framework and the security modules need.  Files that
		use the structure include <linux/lsm_hooks.h>.
		EOF
		;;
	docs) cat <<-'EOF'
		Move the documentation of the hooks next to their declarations in
		include/linux/lsm_hooks.h.
		EOF
		;;
	macros) cat <<-'EOF'
		Every security_ops->HOOK(...) call in security/security.c becomes
		call_int_hook(HOOK, IRC, ...) or call_void_hook(HOOK, ...).  For now
		the macros still call through security_ops, so nothing changes at
		run time; the next patches make them walk the hook lists.  The
		initial return codes (IRC) and the few hooks whose dispatch is not
		a plain call come from lsmconv's special table
		(cocci/lib/special.tsv); those calls stay as they are until the
		lists exist.
		EOF
		;;
	heads) cat <<-'EOF'
		Add a list head for each security hook, grouped in struct
		security_hook_heads, the security_hook_list entry a module
		registers, LSM_HOOK_INIT() to build one, and the declaration of
		security_add_hooks().  Nothing uses them yet.
		EOF
		;;
	switch) cat <<-'EOF'
		Replace the single security_operations vector with the lists of
		hooks.  The security modules provide an array of
		LSM_HOOK_INIT(hook, function) entries and register it with
		security_add_hooks() from their init functions; security.c walks
		the lists in call_int_hook()/call_void_hook() and in the wrappers
		whose dispatch is not a plain loop.  The capability functions
		register their own list first, so the modules no longer call the
		cap_* hooks themselves where the list walk gives the same answer,
		and Yama stacks like any other module instead of being called from
		security.c under CONFIG_SECURITY_YAMA_STACKED.
		EOF
		;;
	retire) cat <<-'EOF'
		The default hooks of security/capability.c and struct
		security_operations have no users left: remove them.
		EOF
		;;
	esac
}

# --- running a step -----------------------------------------------------------
# lib.sh: reproducible git; bg_run, so that SIGINT/SIGTERM do not wait for a
# checkout of the whole tree to finish.
g() { bg_run lsmconv_git -C "$tree" "$@"; }

tree='' base=''
prepare_tree() {
	tree=$work/tree
	mkdir -p "$work"
	if [ -d "$tree/.git" ]; then
		g am --abort >/dev/null 2>&1 || true
		g fetch -q "$baseline" HEAD
		base=$(g rev-parse FETCH_HEAD)
		g reset -q --hard "$base"
		g clean -q -fdx
	else
		rm -rf "$tree"
		bg_run lsmconv_git clone -q --no-checkout "$baseline" "$tree"
		base=$(git -C "$baseline" rev-parse HEAD)
		g checkout -q "$base"
	fi
}

# run_step I: run step I's commands on the tree; its log in $work/logs/I.*
# forward.py imports the framework from the target, or with --own generates
# it from the tree; the rules read the target, or with --own the tree itself
# (its own hooks and, from the heads step on, the registration API it got).
run_step() {
	local fw_target=(--target "$target")
	[ "$own" -eq 0 ] || fw_target=(--own)
	local i=$1 cmds cmd rc=0
	IFS=$'\t' read -r _ _ cmds <<<"${STEPS[$i]}"
	: >"$work/logs/$i.items"
	: >"$work/logs/$i.report.md"
	IFS=';' read -r -a cmds <<<"$cmds"
	for cmd in "${cmds[@]}"; do
		case $cmd in
		"forward "*)
			echo "    cocci/forward/forward.py ${cmd#forward }" >>"$work/logs/$i.produced"
			bg_run "$R/cocci/forward/forward.py" "${cmd#forward }" --tree "$tree" "${fw_target[@]}" \
				>>"$work/logs/$i.items" 2>>"$work/logs/$i.err" || rc=$?
			[ "$rc" -le 0 ] ||
				failed "step $((i + 1)) ($cmd) failed: $(tail -n 3 "$work/logs/$i.err" | paste -sd' ' -) (log: $work/logs/$i.err; --out unchanged)"
			;;
		"rules "*)
			local nums=${cmd#rules } files
			files=$(manifest files "$nums") || failed "step $((i + 1)): cocci/manifest.tsv: no files for rules $nums"
			echo "    convert.sh tree --rules $nums (${files//$'\n'/ })" >>"$work/logs/$i.produced"
			bg_run "$R/convert.sh" tree "$tree" --target "${target:-$tree}" --rules "$nums" --jobs "$jobs" \
				--allow-partial --report "$work/logs/$i.conv.md" --items "$work/logs/$i.conv.jsonl" \
				>/dev/null 2>>"$work/logs/$i.err" ||
				failed "step $((i + 1)) (convert.sh --rules $nums) failed: $(tail -n 3 "$work/logs/$i.err" | paste -sd' ' -) (log: $work/logs/$i.err; --out unchanged)"
			cat "$work/logs/$i.conv.md" >>"$work/logs/$i.report.md"
			# the tree its todos point into (final_todos: a later step may
			# rewrite their lines)
			g add -A && g write-tree >"$work/logs/$i.conv.tree"
			;;
		*) failed "step $((i + 1)): unknown command '$cmd'" ;;
		esac
	done
}

# Commit dates: lsmconv_git's date (v21's cover letter), one minute per step.
DATE0=$LSMCONV_GIT_EPOCH
DATE0_RFC=$LSMCONV_GIT_DATE_RFC

commit_step() {	# commit_step I SUBJECT: commit what step I changed
	local i=$1 subject=$2 name email when
	name=${signoff% <*} email=${signoff##*<} email=${email%>}
	when="@$((DATE0 + 60 * (i + 1))) -0700"
	{
		echo "$subject"
		echo
		body "${STEPS[$i]%%$'\t'*}" | fmt -w 72
		echo
		echo "Produced by lsmconv (no file edited by hand):"
		cat "$work/logs/$i.produced"
		summary "$i"
		echo
		echo "Signed-off-by: $signoff"
	} >"$work/logs/$i.msg"
	g add -A
	LSMCONV_GIT_NAME=$name LSMCONV_GIT_EMAIL=$email LSMCONV_GIT_DATE=$when \
		g commit -q --no-verify -F "$work/logs/$i.msg"
}

# items count|todos|select|from-lines ...: the items (lsmconv.items),
# never the Markdown; report section series FILE: the todo section of
# report.md, rendered by lsmconv.report from items.
items() {
	PYTHONPATH="$R/cocci${PYTHONPATH:+:$PYTHONPATH}" python3 -m lsmconv.items "$@"
}
report() {
	PYTHONPATH="$R/cocci${PYTHONPATH:+:$PYTHONPATH}" python3 -m lsmconv.report "$@"
}

# summary I: counts of what step I's tools did, for its commit message.
summary() {
	local i=$1 f
	f=$work/logs/$i.items
	if [ -s "$f" ]; then
		items count "$f" | LC_ALL=C sort |
			awk 'BEGIN { printf "forward.py:" } { printf " %s %s,", $2, $1 } END { print "" }' |
			sed 's/,$//'
	fi
	f=$work/logs/$i.conv.jsonl
	if [ -e "$f" ]; then
		items count "$f" | awk '{ n[$1] = $2 }
			END {
				printf "convert.sh: %d hook entries, %d call sites, %d cap chains, %d special, %d registrations, %d todo\n",
					n["entry"], n["call"], n["capchain"], n["special"], n["reg"], n["todo"]
			}'
	fi
}

# --- writing the series -------------------------------------------------------
declare -a KEPT SKIPPED
write_series() {
	local tmp=$work/out.tmp n total
	rm -rf "$tmp"
	mkdir -p "$tmp"
	total=${#KEPT[@]}
	g format-patch -q --cover-letter --zero-commit --full-index --no-signature --numbered \
		--subject-prefix=PATCH -o "$tmp" "$base..HEAD" >/dev/null
	fill_cover "$tmp/0000-cover-letter.patch" "$total"
	checkpatch_all "$tmp"
	write_report "$tmp"
	echo "Written by lsmconv (convert.sh series); the next run replaces this directory." \
		>"$tmp/$MARKER"
	install_out "$tmp"
	n=$(grep '^[0-9][0-9][0-9][0-9]-.*\.patch$' "$work/out.names" | grep -vc '^0000-' || true)
	echo "series: $n patches + cover letter in $out" >&2
}

# install_out DIR: the complete series in DIR becomes --out, only now, by
# renames, so that --out is never half-written.  A new --out is DIR
# renamed.  Into an existing one the files go one by one (staged in
# --out/.lsmconv-new first: the same file system), a signal waiting until
# they are all in: in lsmconv's --out (its marker) the previous series'
# NNNN-*.patch that the new one does not have are removed; in a user's
# (--force) nothing is replaced; every other file stays.
install_out() {
	local new=$1 stage e
	(cd "$new" && find . -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort) >"$work/out.names"
	if [ ! -e "$out" ]; then
		rm -rf "$out.lsmconv-new"
		mkdir -p "$(dirname "$out")"
		mv "$new" "$out.lsmconv-new"
		mv -T "$out.lsmconv-new" "$out"
		return
	fi
	stage=$out/.lsmconv-new
	rm -rf "$stage"
	mv "$new" "$stage"
	if [ ! -e "$out/$MARKER" ]; then
		while IFS= read -r e; do
			[ ! -e "$out/$e" ] ||
				failed "$out/$e appeared during the run and is not lsmconv's: the series was not installed (it is in $stage)"
		done <"$work/out.names"
	fi
	defer_interrupts
	if [ -e "$out/$MARKER" ]; then
		for e in "$out"/[0-9][0-9][0-9][0-9]-*.patch; do
			[ ! -f "$e" ] || [ -e "$stage/${e##*/}" ] || rm -f -- "$e"
		done
	fi
	while IFS= read -r e; do
		[ "$e" = "$MARKER" ] || mv -fT -- "$stage/$e" "$out/$e"
	done <"$work/out.names"
	mv -fT -- "$stage/$MARKER" "$out/$MARKER"	# last: the directory is lsmconv's
	rmdir -- "$stage"
	allow_interrupts
}

# fill_cover FILE N: subject, blurb and a fixed date in the cover letter.
fill_cover() {
	local f=$1 total=$2 blurb=$work/blurb.txt i n name subject why
	{
		cat <<-'EOF'
			Replace the single security_operations vector with a list of
			hooks per interface, so that several security modules can be
			active at once: the conversion of Casey Schaufler's "LSM:
			Multiple concurrent LSMs" (v21, 2015), regenerated by lsmconv
		EOF
		if [ "$own" -eq 1 ]; then
			cat <<-'EOF'
				for this tree in its own version: the framework is generated
				from the tree's own struct security_operations and defaults,
				instead of written by hand.
			EOF
		else
			cat <<-'EOF'
				from the pre-stacking baseline of this tree (see
				converted-patches/rewind/) instead of written by hand.
			EOF
		fi
		echo
		echo "The patches, and the lsmconv tools that wrote them:"
		echo
		n=0
		for i in "${KEPT[@]}"; do
			n=$((n + 1))
			IFS=$'\t' read -r name subject _ <<<"${STEPS[$i]}"
			echo "  $n/$total $subject"
			sed 's/^ *\(convert.sh tree --rules [0-9,]*\) .*/\1/; s/^ */        /' "$work/logs/$i.produced"
		done
		if [ ${#SKIPPED[@]} -gt 0 ]; then
			echo
			echo "Steps of v21 left out because they change nothing here:"
			echo
			for i in "${SKIPPED[@]}"; do
				IFS=$'\t' read -r name subject _ <<<"${STEPS[$i]}"
				why=$(skip_reason "$name")
				echo "  $subject: $why"
			done
		fi
		echo
		echo "Each commit message names the lsmconv tools that produced it;"
		echo "report.md next to the patches lists every conversion, what was"
		echo "left for a human and the checkpatch.pl counts."
		echo
		echo "Signed-off-by: $signoff"
	} >"$blurb"
	python3 - "$f" "$blurb" "$total" "$signoff" "$DATE0_RFC" <<-'EOF'
		import sys
		path, blurb, total, who, date = sys.argv[1:6]
		s = open(path).read()
		s = s.replace("*** SUBJECT HERE ***", "LSM: Multiple concurrent LSMs")
		s = s.replace("*** BLURB HERE ***", open(blurb).read().rstrip("\n"))
		head, sep, rest = s.partition("\n\n")
		head = "\n".join("Date: " + date if l.startswith("Date: ") else l
		                 for l in head.split("\n"))
		open(path, "w").write(head + sep + rest)
	EOF
}

skip_reason() {
	case $1 in
	docs) echo "the baseline keeps the hook documentation in lsm_hooks.h already (docs/rewind.md, Limits)" ;;
	*) echo "the tools found nothing to change" ;;
	esac
}

# checkpatch_all DIR: run the target's checkpatch.pl on every patch.
CP_TABLE=''
checkpatch_all() {
	local d=$1 p line why
	CP_TABLE=$work/checkpatch.tsv
	: >"$CP_TABLE"
	for p in "$d"/[0-9][0-9][0-9][0-9]-*.patch; do
		case $p in */0000-*) continue ;; esac
		line=$(perl "${target:-$baseline}/scripts/checkpatch.pl" --no-tree --no-color "$p" \
			2>"$work/checkpatch.err" | grep -E '^total: ' || true)
		if [ -z "$line" ]; then
			# e.g. 4.0's checkpatch.pl under perl 5.26+ (an unescaped `{`)
			why=$(grep -m1 -iE 'error|illegal|died' "$work/checkpatch.err" |
				sed 's/; marked by .*//; s/ at [^ ]* line [0-9]*\.$//' | cut -c1-100 || true)
			line="total: checkpatch gave no summary${why:+ ($why)}"
		fi
		printf '%s\t%s\n' "$(basename "$p")" "$line" >>"$CP_TABLE"
	done
}

write_report() {
	local d=$1 i name subject
	{
		echo "# lsmconv: the stacking series"
		echo
		echo "- baseline: $(git -C "$baseline" log -1 --format='%h %s' HEAD | sed 's/^[0-9a-f]* //')"
		if [ "$own" -eq 1 ]; then
			echo "- target: its own version, $(kernel_version "$baseline") (--own: the framework generated from the tree)"
		else
			echo "- target: linux-source $(kernel_version "$target")"
		fi
		echo "- signed off by: $signoff"
		echo
		# the section is lsmconv.report's, rendered from the items
		report section series "$work/final-todo.jsonl"
		echo
		if [ "$own" -eq 1 ]; then
			echo "## checkpatch.pl (the baseline's scripts/checkpatch.pl --no-tree)"
		else
			echo "## checkpatch.pl (target's scripts/checkpatch.pl --no-tree)"
		fi
		echo
		echo "| patch | result |"
		echo "| --- | --- |"
		sed 's/\t/ | /; s/^/| /; s/$/ |/' "$CP_TABLE"
		for i in "${!STEPS[@]}"; do
			IFS=$'\t' read -r name subject _ <<<"${STEPS[$i]}"
			echo
			echo "## Step $((i + 1)): $subject"
			echo
			if [ ! -s "$work/logs/$i.produced" ]; then
				echo "Left out: $(skip_reason "$name")."
				continue
			fi
			sed 's/^ *//; s/^/- /' "$work/logs/$i.produced"
			if [ -s "$work/logs/$i.items" ]; then
				echo
				echo "### forward.py"
				echo
				report section actions "$work/logs/$i.items"
			fi
			if [ -s "$work/logs/$i.report.md" ]; then
				echo
				# convert.sh's report, its headings one level down, paths
				# relative to the tree
				sed -e 's/^# /### /; s/^## /#### /' -e "s|$tree/||g" "$work/logs/$i.report.md" |
					grep -v '^- target: '
			fi
		done
	} | sed "s|$R/||g" >"$d/report.md"
}

MARKER=.lsmconv-out
# interrupted: no temporary left, --out as before the run, a --work this
# run made removed (and the directories made for it and --out, when empty
# but for this run's lock files).
made=()	# the directories this run made, deepest first
interrupted() {
	local d
	rm -rf "$work/out.tmp" "$out.lsmconv-new" "$out/.lsmconv-new"
	for d in "${made[@]}"; do
		if [ "$d" = "$work" ]; then
			rm -rf -- "$work"
		elif [ -d "$d" ]; then
			[ "$d" != "$(dirname -- "$work")" ] || rm -f -- "$d/.$(basename -- "$work").lsmconv-lock"
			[ "$d" != "$(dirname -- "$out")" ] || rm -f -- "$d/.$(basename -- "$out").lsmconv-lock"
			rmdir -- "$d" 2>/dev/null || true
		fi
	done
}
# missing DIR: DIR and its ancestors that do not exist, deepest first.
missing() {
	local d=$1
	while [ ! -e "$d" ] && [ "$d" != / ]; do
		printf '%s\n' "$d"
		d=$(dirname -- "$d")
	done
}

main() {
	local i name subject cmds todo
	# Interrupted from here on: exit 130/143 "interrupted"; the cleanup is
	# armed only once the locks are ours (it must not touch another run's
	# files).
	on_interrupt ''
	parse_args "$@"
	load_steps
	command -v spatch >/dev/null || fail "spatch not installed (make deps)"
	guard_out "$out" "$MARKER" "$force" --out '[0-9][0-9][0-9][0-9]-*.patch' report.md .lsmconv-new
	guard_out "$work" "$MARKER" "$force" --work tree logs out.tmp out.names blurb.txt \
		checkpatch.tsv checkpatch.err final-todo.jsonl
	check_paths
	mapfile -t made < <(missing "$work"; missing "$(dirname -- "$out")")
	lock_dir "$work"
	lock_dir "$out"
	on_interrupt interrupted
	mkdir -p "$work"
	[ -e "$work/$MARKER" ] ||
		echo "Scratch directory of lsmconv (convert.sh series --work); the next run resets it." >"$work/$MARKER"
	prepare_tree
	rm -rf "$work/logs"
	mkdir -p "$work/logs"
	KEPT=() SKIPPED=()
	for i in "${!STEPS[@]}"; do
		IFS=$'\t' read -r name subject cmds <<<"${STEPS[$i]}"
		progress $((i + 1)) ${#STEPS[@]} "$subject"
		: >"$work/logs/$i.produced"
		if [ -n "$cmds" ]; then
			run_step "$i"
		fi
		if [ -z "$(g status --porcelain)" ]; then
			SKIPPED+=("$i")
			: >"$work/logs/$i.produced"
			continue
		fi
		commit_step "$i" "$subject"
		KEPT+=("$i")
	done
	[ ${#KEPT[@]} -gt 0 ] || failed "no step changed the baseline: nothing to write (--out unchanged)"
	final_todos >"$work/final-todo.jsonl"
	todo=$(items count "$work/final-todo.jsonl" | awk '$1 == "todo" { n = $2 } END { print n + 0 }')
	write_series
	if [ "$todo" -gt 0 ]; then
		echo "series: $todo item(s) left for a human in the final tree (see $out/report.md)" >&2
		todo_exit=1
		[ "$allow_partial" -eq 1 ] || exit "$EXIT_TODO"
	fi
}

# final_todos: the items left for a human after the last step (items.jsonl,
# lsmconv.items): forward.py's todos, the todos of the last convert.sh run
# whose lines no later step rewrote, and any legacy API still in the
# framework or module sources.
final_todos() {
	local last='' i
	for i in "${!STEPS[@]}"; do
		[ -e "$work/logs/$i.conv.jsonl" ] && last=$i
	done
	items select todo "$work"/logs/*.items
	if [ -n "$last" ]; then
		items select todo --sort --strip "$tree" --still "$(cat "$work/logs/$last.conv.tree")" \
			"$work/logs/$last.conv.jsonl"
	fi
	# legacy API in the final tree that the target does not have too (its
	# comments still mention security_ops)
	g ls-files -z include/linux/security.h include/linux/lsm_hooks.h 'security/*.[ch]' |
		(cd "$tree" && xargs -0 grep -nE 'security_ops\b|struct security_operations|register_security\(') |
		while IFS=: read -r f l text; do
			# --own has no target to compare with: comment lines do not count
			if [ "$own" -eq 1 ]; then
				case ${text#"${text%%[![:space:]]*}"} in '*'* | '/*'* | '//'*) continue ;; esac
			fi
			grep -qxF -- "$text" "$target/$f" 2>/dev/null ||
				echo "$f:$l: legacy LSM API left in the final tree: ${text#"${text%%[![:space:]]*}"}"
		done | items from-lines series || true
}

main "$@"

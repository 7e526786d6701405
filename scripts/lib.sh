# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Shell helpers shared by lsmconv's scripts.  Source it; it defines functions only.

# Repository root (this file lives in scripts/).
LSMCONV_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export LSMCONV_ROOT

# --- exit codes ---------------------------------------------------------------
# The one table of every lsmconv command (docs/CONTRACTS.md; Python's copy is
# cocci/lsmconv/exits.py, tests/lint checks that they agree and that no
# command exits with a bare 1 or 3):
#   0 done; 1 something left for a human (todos); 2 usage, input or setup
#   error, nothing written; 3 a step failed after writing started (a build,
#   a boot, a rule: what was written is named); 130/143 interrupted by
#   SIGINT/SIGTERM.
# shellcheck disable=SC2034
EXIT_DONE=0 EXIT_TODO=1 EXIT_USAGE=2 EXIT_FAILED=3 EXIT_INT=130 EXIT_TERM=143

# die MESSAGE: a step ran and failed (exit 3, never 1: 1 means todos left).
die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit "$EXIT_FAILED"
}

# die_usage MESSAGE: a usage, input or setup error; nothing was written.
die_usage() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit "$EXIT_USAGE"
}

# show_help: --help of a script: its header comment (from line 3 to the
# first line that is not a comment) on stdout, exit 0.
show_help() {
	sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"
	exit "$EXIT_DONE"
}

# need_value OPTION ARGS...: exit 2 unless OPTION's value, the next
# argument, is there, not empty and not an option (a directory named -x is
# ./-x): `--out` at the end of the line, or `--out --force`, is a usage error,
# not a bash error (exit 1) or a directory named --force.
need_value() {
	if [ $# -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
		die_usage "$1 needs a value (see --help)"
	fi
}

# The distro trees: Debian's linux-source-VERSION packages (scripts/deps.sh
# installs the one chosen), unpacked by scripts/tree.sh into build/.  The
# one place that names them; the Makefile (TARGET=) and lsmconv.paths read
# these lines.  LSMCONV_TARGET picks one; the default is the tree every
# command works on and the only one the series is regenerated from.
LSMCONV_DEFAULT_TARGET=6.1
LSMCONV_TARGETS="6.1 6.12"
LSMCONV_TARGET=${LSMCONV_TARGET:-$LSMCONV_DEFAULT_TARGET}
case " $LSMCONV_TARGETS " in
*" $LSMCONV_TARGET "*) ;;
*) die_usage "TARGET=$LSMCONV_TARGET: not one of the distro targets ($LSMCONV_TARGETS)" ;;
esac
LSMCONV_DISTRO=linux-source-$LSMCONV_TARGET
LSMCONV_DISTRO_TREE=$LSMCONV_ROOT/build/$LSMCONV_DISTRO
export LSMCONV_TARGET LSMCONV_DISTRO LSMCONV_DISTRO_TREE

# target_tree TARGET: the tree of any distro target (LSMCONV_TARGETS), for
# what works on several targets in one run (make check, make bench).
target_tree() {
	case " $LSMCONV_TARGETS " in
	*" $1 "*) echo "$LSMCONV_ROOT/build/linux-source-$1" ;;
	*) die_usage "TARGET=$1: not one of the distro targets ($LSMCONV_TARGETS)" ;;
	esac
}

# die_log LOG MESSAGE: die, after printing the last 20 lines of LOG on
# stderr, so that whoever runs us (a test suite's TAP, CI) sees the cause.
die_log() {
	local log=$1
	shift
	if [ -s "$log" ]; then
		printf '%s: last lines of %s:\n' "${0##*/}" "$log" >&2
		tail -n 20 "$log" | sed 's/^/  | /' >&2
	fi
	die "$*"
}

warn() {
	printf '%s: warning: %s\n' "${0##*/}" "$*" >&2
}

# progress STEP TOTAL MESSAGE: one line per step, on stderr.
progress() {
	printf '[%s/%s] %s\n' "$1" "$2" "$3" >&2
}

# is_kernel_tree DIR: true when DIR looks like a Linux source tree.
is_kernel_tree() {
	local d=$1
	[ -f "$d/Makefile" ] && [ -f "$d/Kconfig" ] && [ -d "$d/include/linux" ] &&
		[ -d "$d/security" ] && grep -q '^VERSION *=' "$d/Makefile" &&
		grep -q '^PATCHLEVEL *=' "$d/Makefile"
}

# require_kernel_tree DIR: exit 2 with a clear message unless DIR is a kernel tree.
require_kernel_tree() {
	local d=$1
	[ -d "$d" ] || die_usage "$d: no such directory"
	is_kernel_tree "$d" ||
		die_usage "$d: not a kernel tree (needs Makefile with VERSION/PATCHLEVEL, Kconfig, include/linux/, security/)"
}

# kernel_version DIR: "6.1.192" from the tree's Makefile.
kernel_version() {
	awk -F' *= *' '
		$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { s = $2 } $1 == "EXTRAVERSION" { e = $2 }
		END { printf "%s.%s", v, p; if (s != "") printf ".%s", s; printf "%s\n", e }
	' "$1/Makefile"
}

# --- kernel builds ------------------------------------------------------------
# A tree lsmconv made (anything under build/: the distro tree, the baseline,
# make verify's clone, make port's scratch copies) keeps the objects of kernel
# NAME in a direct child of itself, TREE/.lsmconv-obj-NAME.  Kbuild then uses
# srctree=.., so no command line names the tree's path, and ccache
# (build/ccache) serves a copy of the tree at another path from the objects
# of the first build: make port's scratch tree from the distro kernel, make
# verify's full stack from the same.  The kernel's .gitignore ignores the
# name (".*"); every copy of a tree leaves it out (tree_copy_skips).  Another
# tree (TREE=~/linux) is not written: its kernels go to build/kernels/NAME.
LSMCONV_OBJ_PREFIX=.lsmconv-obj-
# gcc through ccache when it is installed (scripts/deps.sh installs it).
if command -v ccache >/dev/null 2>&1; then LSMCONV_CC="ccache gcc"; else LSMCONV_CC=gcc; fi
CCACHE_DIR=$LSMCONV_ROOT/build/ccache
export LSMCONV_CC CCACHE_DIR

# kbuild_objdir TREE NAME: the O= directory of kernel NAME built from TREE.
kbuild_objdir() {
	local t
	t=$(realpath -m -- "$1")
	case $t/ in
	"$LSMCONV_ROOT"/build/*) echo "$t/$LSMCONV_OBJ_PREFIX$2" ;;
	*) echo "$LSMCONV_ROOT/build/kernels/$2" ;;
	esac
}

# lsm_kernel_name TREE: the name of TREE's kernel with every LSM (base,
# lsm and the selftests' fragments: make kernel, make boot): lsm for this
# run's distro tree, else DIRNAME-lsm, so that build/kernels/lsm is always the
# chosen target's.  make port starts its kernels from this one (--seed).
lsm_kernel_name() {
	if [ "$(realpath -m -- "$1")" = "$(realpath -m -- "$LSMCONV_DISTRO_TREE")" ]; then
		echo lsm
	else
		basename -- "$(realpath -m -- "$1")"-lsm
	fi
}

# tree_copy_skips NAME: true for a top-level entry of a tree that a copy of
# the tree leaves out (.git, the object directories above).
tree_copy_skips() {
	case $1 in
	.git | "$LSMCONV_OBJ_PREFIX"*) return 0 ;;
	esac
	return 1
}

# kbuild_seed TREE OUT SEED: start the new object directory OUT of TREE as a
# copy of SEED, the finished build of a tree whose files TREE shares (a
# hard-linked copy, or TREE itself), so that Kbuild compiles only what
# differs: files with newer mtimes, and objects whose recorded
# include/config/ dependencies a config change touches.  Prints what it did,
# or why it did not (the build is then cold).  Both object directories must
# sit directly in their tree (srctree is then "..": relative dependencies).
# Trap: every object depends on objtool, which tools/' own make builds with
# absolute paths, so the copy would link it again and compile everything
# again: objtool is built in OUT at once, from the same sources, and its
# files get the seed objtool's mtime, which every seeded object is newer than.
kbuild_seed() {
	local tree=$1 out=$2 s st f ot
	s=$(realpath -m -- "$3")
	st=$(dirname "$s")
	if [ ! -f "$s/.config" ] || [ ! -f "$s/arch/x86/boot/bzImage" ]; then
		echo "cold build: $s is not a finished kernel build"
		return 0
	fi
	if [ -e "$out" ] || [ "$(dirname "$out")" != "$tree" ]; then
		echo "cold build: $out exists, or is not directly in $tree"
		return 0
	fi
	for f in Makefile include/linux/security.h security/security.c; do
		if [ ! "$tree/$f" -ef "$st/$f" ]; then
			echo "cold build: $tree/$f is not $st/$f (not a hard-linked copy)"
			return 0
		fi
	done
	rm -rf "$out.seeding"
	cp -a --reflink=auto "$s" "$out.seeding"
	rm -f "$out.seeding/.lsmconv-config"
	mv "$out.seeding" "$out"
	ot=$s/tools/objtool/objtool
	if [ -f "$ot" ]; then
		if kbuild "$tree" "$out" tools/objtool >"$out/seed-objtool.log" 2>&1; then
			find "$out/tools/objtool" -type f -newer "$ot" -exec touch -r "$ot" {} +
		else
			warn "objtool did not build in the seeded $out (see $out/seed-objtool.log): every object is compiled again"
		fi
	fi
	echo "starts from the objects of $s"
}

# ccache_mode TREE: how ccache looks up TREE's compilations, "preprocessor"
# or "depend".  After a direct-mode miss (the sources or any header, the
# config's autoconf.h included, differ), ccache's default runs the
# preprocessor and looks the output up: an object compiled under another
# config is found when its preprocessed text is the same.  make baseline
# rewinds the distro tree, and the baseline and the steps of the series
# (baseline.config) find most of their objects among the compilations of the
# distro kernel lsm (lsm.config) that way (in make check, about 60 % of the
# baseline's and 90 % of "Switch to lists"'s; docs/bench.md).  That lookup
# costs a preprocessor run on every miss, beside the compiler's own.  Kernels of every other tree share objects only
# with builds of the same config, which the direct lookup finds: their
# compilations run in depend mode (the compiler's dependency file replaces
# the preprocessor run; about 25 % less CPU per miss).  The distro tree's
# family is its kernel version: the baseline, make verify's clone and make
# port's scratch copies keep it.  A pre-stacking tree (no lsm_hook_defs.h:
# 4.0) is built under more than one configuration too: make v21's kernels
# (legacy-4.0.config) and make port's legacy baseline (the same plus a
# module), whose objects the first serves.
ccache_mode() {
	if [ "$(kernel_version "$1" 2>/dev/null)" = "$(kernel_version "$LSMCONV_DISTRO_TREE" 2>/dev/null)" ] ||
		[ ! -f "$1/include/linux/lsm_hook_defs.h" ]; then
		echo preprocessor
	else
		echo depend
	fi
}

# kbuild TREE OBJDIR ARGS...: make in TREE for x86_64 with O=OBJDIR,
# $LSMCONV_CC and ccache in TREE's mode (ccache_mode).  The host programs
# (kconfig, fixdep, objtool: built again in every object directory) are
# compiled through $LSMCONV_CC too.
#
# An old tree also gets what Debian 12's gcc and binutils need to build it
# (qemu-boot/compat.sh: files in OBJDIR and make arguments, the same for
# every build of that tree, never an edit of the tree; nothing for 6.1/6.12).
kbuild() {
	local tree=$1 o=$2 mode=CCACHE_DEPEND compat=()
	shift 2
	[ "$(ccache_mode "$tree")" = depend ] || mode=CCACHE_NODEPEND
	compat_prepare "$tree" "$o"
	mapfile -t compat < <(compat_make_args "$tree")
	env -u CCACHE_DEPEND -u CCACHE_NODEPEND "$mode=1" \
		make -C "$tree" O="$o" ARCH=x86_64 CC="$LSMCONV_CC" HOSTCC="$LSMCONV_CC" "${compat[@]}" "$@"
}

# kconfig TREE OBJDIR LOST FRAG...: OBJDIR/.config is tinyconfig + the
# fragments (merge_config.sh: a later fragment overrides an earlier one),
# made again only when the fragments, the tree's path or its git HEAD
# changed (make verify builds every commit of a series in one directory);
# every option whose last setting did not survive
# olddefconfig is written to LOST ("FRAG: 'CONFIG_X=y' ..."), one a line.
# The one configurator of every kernel lsmconv builds (build-kernel.sh,
# make verify's steps, make port's kernels).  Returns 1 when a make step
# failed (its output is in OBJDIR/build.log).
kconfig() {
	local tree=$1 o=$2 lost=$3 stamp f line opt
	shift 3
	mkdir -p "$o"
	: >"$lost"
	stamp=$( (cat "$@"; echo "$tree"; git -C "$tree" rev-parse -q --verify HEAD 2>/dev/null) |
		sha256sum | cut -d' ' -f1)
	if [ ! -f "$o/.config" ] || [ "$(cat "$o/.lsmconv-config" 2>/dev/null)" != "$stamp" ]; then
		rm -f "$o/.lsmconv-config"
		kbuild "$tree" "$o" tinyconfig >"$o/build.log" 2>&1 || return 1
		"$tree/scripts/kconfig/merge_config.sh" -m -O "$o" "$o/.config" "$@" >>"$o/build.log" 2>&1 ||
			return 1
		kbuild "$tree" "$o" olddefconfig >>"$o/build.log" 2>&1 || return 1
		echo "$stamp" >"$o/.lsmconv-config"
	fi
	local -A wanted=() fragment_of=()
	for f in "$@"; do
		while IFS= read -r line; do
			wanted[${line%%=*}]=$line fragment_of[${line%%=*}]=$f
		done < <(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$f")
	done
	for opt in "${!wanted[@]}"; do
		grep -qxF "${wanted[$opt]}" "$o/.config" ||
			echo "${fragment_of[$opt]#"$LSMCONV_ROOT"/}: '${wanted[$opt]}' did not survive olddefconfig" >>"$lost"
	done
	sort -o "$lost" "$lost"
}

# ccache_log_begin LOG: from now on the compilations this shell runs through
# ccache are logged in LOG (ccache's stats_log, emptied first).  A build
# counts only its own: make check builds two kernels at once, and the
# cache-wide counters would add the other's compilations.
ccache_log_begin() {
	: >"$1"
	export CCACHE_STATSLOG=$1
}
# ccache_log_count LOG: "HITS CALLS", the compilations logged in LOG and how
# many came from the cache (0 0 without ccache).
ccache_log_count() {
	[ -s "$1" ] || { echo "0 0"; return; }
	awk '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h++ }
		$1 == "cache_miss" { m++ } END { print h + 0, h + m + 0 }' "$1"
}

# --- the tree's selftest suites ------------------------------------------------
# The tree's own kselftest suites the full-stack guest runs (boot-variants.sh),
# as SUITE:TEST: tools/testing/selftests/SUITE when the tree has it (6.1 has
# no lsm), built into /lsmtest/SUITE.d and run there by the guest test TEST
# (qemu-boot/guest/tests/TEST; qemu-boot/variants.tsv names the variants).
LSMCONV_SELFTESTS="landlock:landlock lsm:lsm-selftests"

# selftest_fragments TREE: the config fragment of each of those suites that
# TREE has (tools/testing/selftests/SUITE/config), one path a line.  Merged
# after base.config and lsm.config (build-kernel.sh), so that the kernel has
# what the suites ask for (Landlock's IPv6 and MPTCP cases on 6.12).
selftest_fragments() {
	local s f
	for s in $LSMCONV_SELFTESTS; do
		f=$1/tools/testing/selftests/${s%%:*}/config
		if [ -f "$f" ]; then echo "$f"; fi
	done
}

# lsm_fragments TREE: the config fragments of TREE's kernel with every LSM
# (lsm_kernel_name), one path a line: base.config, lsm.config, then
# selftest_fragments.  build-kernel.sh's default; make port's target kernel
# (plus its own fragment) and make verify's full stack use the same.
lsm_fragments() {
	echo "$LSMCONV_ROOT/qemu-boot/config/base.config"
	echo "$LSMCONV_ROOT/qemu-boot/config/lsm.config"
	selftest_fragments "$1"
}

# legacy_fragments TREE: the config fragments of a pre-stacking tree's kernel,
# one path a line: for a tree without include/linux/lsm_hook_defs.h (older
# than 5.7, like 4.0) the whole configuration of its version,
# qemu-boot/config/legacy-VERSION.PATCHLEVEL.config, when there is one
# (base.config and baseline.config name options such a tree does not have);
# else baseline_fragments (the rewound distro tree).
legacy_fragments() {
	local f
	f=$LSMCONV_ROOT/qemu-boot/config/legacy-$(awk -F' *= *' '$1 == "VERSION" { v = $2 }
		$1 == "PATCHLEVEL" { p = $2 } END { print v "." p }' "$1/Makefile").config
	if [ ! -f "$1/include/linux/lsm_hook_defs.h" ] && [ -f "$f" ]; then
		echo "$f"
	else
		baseline_fragments
	fi
}

# baseline_fragments: the config fragments of the pre-stacking baseline's
# kernel (build/baseline), one path a line: base.config, baseline.config.
# make verify's default (verify/pipeline.sh: base.config + --config FRAG),
# make port's baseline kernel (plus its own fragment) and tests/rewind.
baseline_fragments() {
	echo "$LSMCONV_ROOT/qemu-boot/config/base.config"
	echo "$LSMCONV_ROOT/qemu-boot/config/baseline.config"
}

# --- reproducible git -------------------------------------------------------
# Every commit and patch lsmconv writes goes through lsmconv_git: one
# identity, one date (the date of v21's cover letter, Mon, 9 Mar 2015
# 18:13:55 -0700), no system or user configuration, a fixed abbreviation.
# Patches that are committed (converted-patches/) are also written with
# --full-index and --zero-commit, so nothing in them depends on the machine.
# No automatic gc: a background `git gc --auto` after the rewind's commits
# packed and pruned build/baseline's loose objects while the series step
# cloned it ("failed to copy file to .../objects/...").
# A caller may set LSMCONV_GIT_NAME, LSMCONV_GIT_EMAIL or LSMCONV_GIT_DATE for
# one call (the series commits as its --signoff, one minute per step).
LSMCONV_GIT_NAME=lsmconv
LSMCONV_GIT_EMAIL=lsmconv@localhost
LSMCONV_GIT_EPOCH=1425950035
LSMCONV_GIT_DATE="@$LSMCONV_GIT_EPOCH -0700"
LSMCONV_GIT_DATE_RFC='Mon, 9 Mar 2015 18:13:55 -0700'
export LSMCONV_GIT_NAME LSMCONV_GIT_EMAIL LSMCONV_GIT_EPOCH LSMCONV_GIT_DATE LSMCONV_GIT_DATE_RFC

lsmconv_git() {
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
		GIT_AUTHOR_NAME=$LSMCONV_GIT_NAME GIT_AUTHOR_EMAIL=$LSMCONV_GIT_EMAIL \
		GIT_COMMITTER_NAME=$LSMCONV_GIT_NAME GIT_COMMITTER_EMAIL=$LSMCONV_GIT_EMAIL \
		GIT_AUTHOR_DATE=$LSMCONV_GIT_DATE GIT_COMMITTER_DATE=$LSMCONV_GIT_DATE \
		git -c user.useConfigOnly=false -c commit.gpgsign=false -c core.autocrlf=false \
		-c core.abbrev=12 -c init.defaultBranch=master -c diff.noprefix=false \
		-c diff.mnemonicPrefix=false -c diff.renames=true -c format.signoff=false \
		-c format.coverLetter=false -c format.thread=false \
		-c gc.auto=0 -c maintenance.auto=false "$@"
}

# --- LSMs -------------------------------------------------------------------
# lsm_majors: the major LSMs, one a line, from the "# majors:" line of
# qemu-boot/variants.tsv; lsm_exclusive: the variants' names there (SELinux,
# Smack, AppArmor: one of them per stack).
lsm_majors() {
	sed -n 's/^# majors: *//p' "$LSMCONV_ROOT/qemu-boot/variants.tsv" | tr ' ' '\n' | grep .
}
lsm_exclusive() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$LSMCONV_ROOT/qemu-boot/variants.tsv" | cut -f1
}

# --- output directories ----------------------------------------------------------
# guard_out DIR MARKER FORCE OPTION [GLOB...]: refuse (exit 2, nothing
# written) to write DIR unless it is absent, empty or holds MARKER: only the
# marker says that lsmconv made a directory, never the names in it.  FORCE=1
# accepts a directory lsmconv did not make, but only when none of its
# entries matches the GLOBs (the names the command writes there): lsmconv
# writes beside a user's files and never replaces or deletes one.  Never /,
# $HOME, the repository or a directory above it, even with FORCE.
guard_out() {
	local dir=$1 marker=$2 force=$3 opt=$4 abs home e clash=()
	shift 4
	[ -n "$dir" ] || die_usage "$opt: empty path"
	abs=$(realpath -m -- "$dir")
	home=$(realpath -m -- "${HOME:-/}")
	case $abs in
	/ | "$home") die_usage "$opt $dir: refusing to write $abs (/ or \$HOME)" ;;
	esac
	case $LSMCONV_ROOT/ in
	"$abs"/*) die_usage "$opt $dir: refusing to write $abs (the lsmconv repository or a directory above it)" ;;
	esac
	[ ! -e "$abs" ] || [ -d "$abs" ] || die_usage "$opt $dir: exists and is not a directory"
	if [ -d "$abs" ] && [ ! -e "$abs/$marker" ] && [ -n "$(ls -A -- "$abs" 2>/dev/null)" ]; then
		[ "$force" = 1 ] ||
			die_usage "$opt $dir: not empty and not written by lsmconv (no $marker in it); choose another directory or add --force"
		for e in "$abs"/* "$abs"/.[!.]* "$abs"/..?*; do
			[ -e "$e" ] || [ -L "$e" ] || continue
			! matches_any "${e##*/}" "$@" || clash+=("${e##*/}")
		done
		[ ${#clash[@]} -eq 0 ] ||
			die_usage "$opt $dir: not written by lsmconv (no $marker in it) and holds ${clash[*]}, which this run would replace; lsmconv never replaces a file it did not write, even with --force: move them or choose another directory"
	fi
	return 0
}

# matches_any NAME GLOB...: NAME matches one of the GLOBs.
matches_any() {
	local name=$1 g
	shift
	for g in "$@"; do
		# shellcheck disable=SC2053
		[[ $name == $g ]] && return 0
	done
	return 1
}

# lock_dir DIR [WAIT]: one run at a time per work directory.  Takes an
# exclusive flock on .NAME.lsmconv-lock next to DIR for the rest of the process
# (and its children) and writes its PID there.  A second run refuses at once
# (exit 2), naming the lock and the PID holding it; with WAIT (seconds, more
# than 0) it first waits up to WAIT seconds for the other run, saying so (the
# wait is interruptible: bg_run).
lock_dir() {
	local dir lockf wait=${2:-0} pid holder
	dir=$(realpath -m -- "$1")
	mkdir -p -- "$(dirname -- "$dir")"
	lockf=$(dirname -- "$dir")/.$(basename -- "$dir").lsmconv-lock
	# (>>: opening the file must not empty the holder's PID)
	exec {LSMCONV_LOCK_FD}>>"$lockf" || die_usage "$lockf: cannot create the lock file"
	if ! flock -n "$LSMCONV_LOCK_FD"; then
		pid=$(head -c 20 "$lockf" 2>/dev/null | tr -cd '0-9')
		holder="another lsmconv run (${pid:+pid $pid, }lock $lockf)"
		[ "$wait" -gt 0 ] ||
			die_usage "$dir is in use by $holder; wait for it to finish or choose another directory"
		printf '%s: %s is in use by %s: waiting up to %s s for it to finish\n' \
			"${0##*/}" "$dir" "$holder" "$wait" >&2
		bg_run flock -w "$wait" "$LSMCONV_LOCK_FD" ||
			die_usage "$dir is still in use by $holder after $wait s; try again later or choose another directory"
	fi
	echo "$$" >"$lockf" || true
}

# --- signals ---------------------------------------------------------------------
# on_interrupt FUNCTION: on SIGINT/SIGTERM stop every process started from
# here (convert.sh, spatch, make, ...), run FUNCTION (remove temporary files,
# put --out back), say "interrupted" on the command's own stderr and exit
# 130/143.  Bash runs a trap only when the foreground command ends: start
# long steps with bg_run so that the trap runs at once.  The trap runs inside
# the redirections of the command it interrupted (a step's 2>>LOG), so the
# message goes to a copy of stderr taken at the first call.
on_interrupt() {
	LSMCONV_ON_INTERRUPT=$1
	[ -n "${LSMCONV_STDERR_FD:-}" ] || exec {LSMCONV_STDERR_FD}>&2
	trap 'lsmconv_interrupted INT 130' INT
	trap 'lsmconv_interrupted TERM 143' TERM
}
lsmconv_interrupted() {
	if [ "${LSMCONV_DEFER:-0}" = 1 ]; then
		LSMCONV_PENDING="$1 $2"
		return 0
	fi
	trap '' INT TERM
	kill_descendants "$$" TERM
	[ -z "${LSMCONV_ON_INTERRUPT:-}" ] || "$LSMCONV_ON_INTERRUPT" 2>&"${LSMCONV_STDERR_FD:-2}" || true
	printf '%s: interrupted (SIG%s)\n' "${0##*/}" "$1" >&"${LSMCONV_STDERR_FD:-2}"
	exit "$2"
}
# defer_interrupts ... allow_interrupts: a section a signal does not cut
# short (a few renames that install an output); a signal that came in the
# meantime is handled at allow_interrupts.
defer_interrupts() {
	LSMCONV_DEFER=1 LSMCONV_PENDING=''
}
allow_interrupts() {
	local p=${LSMCONV_PENDING:-}
	LSMCONV_DEFER=0 LSMCONV_PENDING=''
	[ -z "$p" ] || lsmconv_interrupted "${p% *}" "${p#* }"
}
# bg_run CMD...: run CMD and wait for it, interruptible by on_interrupt.
bg_run() {
	"$@" &
	wait "$!"
}
# descendants PID: every process below PID (from /proc), parents first.
descendants() {
	local f line rest p ppid
	for f in /proc/[0-9]*/stat; do
		# a process may end while we read: skip it
		{ read -r line <"$f"; } 2>/dev/null || continue
		rest=${line##*) }		# the fields after "(comm) ": state ppid ...
		p=${f#/proc/}
		read -r _ ppid _ <<<"$rest"
		printf '%s %s\n' "${p%/stat}" "$ppid"
	done | awk -v root="$1" '
		{ parent[$1] = $2 }
		END {
			n = 1; q[1] = root
			for (i = 1; i <= n; i++)
				for (c in parent)
					if (parent[c] == q[i]) { q[++n] = c; print c }
		}'
}
# kill_descendants PID SIG: send SIG to every process below PID.
kill_descendants() {
	local pids
	mapfile -t pids < <(descendants "$1")
	[ ${#pids[@]} -eq 0 ] || kill -"$2" "${pids[@]}" 2>/dev/null || true
}

# The toolchain compatibility of old trees (kbuild above).
# shellcheck source=qemu-boot/compat.sh
. "$LSMCONV_ROOT/qemu-boot/compat.sh"

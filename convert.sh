#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# convert.sh - run lsmconv's semantic patches over legacy LSM code.
#
# usage: convert.sh tree DIR [options]
#        convert.sh file FILE... [options]
#        convert.sh series [series options]   (see scripts/series.sh --help)
#        convert.sh port DIR --name NAME [--target TREE] [--out DIR] [--report FILE]
# options: --target TREE   kernel tree whose lsm_hook_defs.h gives the hooks
#                          (default: build/linux-source-6.1 next to this script)
#          --out DIR       write the results under DIR instead of in place
#          --report FILE   write the Markdown report to FILE (default: stdout)
#          --allow-partial exit 0 even when something was left for a human
#          --jobs N        spatch processes (default 1)
#          --rules LIST    only the rules whose number is in LIST (e.g. 30 or
#                          10,11,20); default every cocci/NN-*.cocci
#
# Exit status: 0 everything converted (or --allow-partial), 1 something was
# left for a human (a todo), 2 usage or setup error (nothing written).
# See docs/converter.md.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PROG=convert.sh

MODE=""
INPUTS=()
TARGET="$HERE/build/linux-source-6.1"
OUT=""
REPORT=""
ALLOW_PARTIAL=0
JOBS=1
RULES=""
WORK=""
SPATCH_PY=""

# Parallel arrays: original path of each input and its copy under $WORK/cur.
ORIG=()
REL=()

die() {
	echo "$PROG: $*" >&2
	exit 2
}

usage() {
	sed -n '4,18s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
	exit 2
}

cleanup() {
	if [[ -n "$WORK" && -d "$WORK" ]]; then
		rm -rf -- "$WORK"
	fi
}

parse_args() {
	[[ $# -gt 0 ]] || usage
	case "$1" in
	tree | file) MODE=$1 ;;
	series)
		shift
		exec "$HERE/scripts/series.sh" "$@"
		;;
	port)
		shift
		PYTHONPATH="$HERE/cocci${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m lsmconv.port "$@"
		;;
	-h | --help) usage ;;
	*) die "first argument must be 'tree' or 'file', not '$1'" ;;
	esac
	shift
	while [[ $# -gt 0 ]]; do
		case "$1" in
		--target)
			[[ $# -ge 2 ]] || die "--target needs a directory"
			TARGET=$2
			shift 2
			;;
		--out)
			[[ $# -ge 2 ]] || die "--out needs a directory"
			OUT=$2
			shift 2
			;;
		--report)
			[[ $# -ge 2 ]] || die "--report needs a file name"
			REPORT=$2
			shift 2
			;;
		--jobs)
			[[ $# -ge 2 && $2 =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive number"
			JOBS=$2
			shift 2
			;;
		--rules)
			[[ $# -ge 2 && $2 =~ ^[0-9]+(,[0-9]+)*$ ]] ||
				die "--rules needs a comma-separated list of rule numbers"
			RULES=$2
			shift 2
			;;
		--allow-partial)
			ALLOW_PARTIAL=1
			shift
			;;
		-h | --help) usage ;;
		-*) die "unknown option '$1'" ;;
		*)
			INPUTS+=("$1")
			shift
			;;
		esac
	done
	[[ ${#INPUTS[@]} -gt 0 ]] || die "$MODE mode needs at least one path"
	if [[ $MODE == tree && ${#INPUTS[@]} -ne 1 ]]; then
		die "tree mode takes exactly one directory"
	fi
}

check_target() {
	[[ -f "$TARGET/include/linux/lsm_hook_defs.h" ]] ||
		die "not a kernel tree with include/linux/lsm_hook_defs.h (--target): $TARGET"
}

# Fill ORIG/REL with the files to convert.
collect_files() {
	local f tree
	if [[ $MODE == tree ]]; then
		tree=${INPUTS[0]}
		[[ -d "$tree/security" && -d "$tree/include/linux" ]] ||
			die "not a kernel tree (no security/ and include/linux/): $tree"
		while IFS= read -r f; do
			ORIG+=("$tree/$f")
			REL+=("$f")
		done < <(cd "$tree" &&
			{
				find security -name '*.c' -type f -print0 |
					xargs -0r grep -lE 'security_operations|security_ops|SECURITY_YAMA_STACKED' -- || true
				find include/linux -maxdepth 1 -name '*.h' -type f -print0 |
					xargs -0r grep -lE 'security_operations|security_ops' -- || true
			} | LC_ALL=C sort)
	else
		local i=0 base
		declare -A seen=()
		for f in "${INPUTS[@]}"; do
			[[ -f "$f" ]] || die "no such file: $f"
			[[ -r "$f" ]] || die "cannot read: $f"
			base=$(basename -- "$f")
			if [[ -n "$OUT" && -n "${seen[$base]:-}" ]]; then
				die "two inputs named $base: --out cannot hold both ($f)"
			fi
			seen[$base]=1
			ORIG+=("$f")
			REL+=("f$i/$base")
			i=$((i + 1))
		done
	fi
	[[ ${#ORIG[@]} -gt 0 ]] || echo "$PROG: no file mentions security_operations/security_ops" >&2
}

check_outputs() {
	if [[ -n "$OUT" && -e "$OUT" && ! -d "$OUT" ]]; then
		die "--out is not a directory: $OUT"
	fi
	if [[ -n "$REPORT" ]]; then
		local d
		d=$(dirname -- "$REPORT")
		[[ -d "$d" ]] || die "no directory for --report: $d"
	fi
}

setup_work() {
	local i
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/lsmconv.XXXXXX")
	trap cleanup EXIT
	mkdir -p "$WORK/cur" "$WORK/log" "$WORK/snap"
	for i in "${!ORIG[@]}"; do
		mkdir -p "$WORK/cur/$(dirname -- "${REL[$i]}")"
		cp -- "${ORIG[$i]}" "$WORK/cur/${REL[$i]}"
		printf '%s\t%s\n' "$WORK/cur/${REL[$i]}" "${ORIG[$i]}" >>"$WORK/map.tsv"
	done
	: >>"$WORK/map.tsv"
	# The interpreter itself, not a wrapper script (pyenv shims cost half a
	# second a call; spatch would run them at every rule to find python).
	SPATCH_PY=$(python3 -c 'import sys; print(sys.executable)') ||
		die "python3 is needed"
	"$SPATCH_PY" "$HERE/cocci/lib/hookdb.py" "$TARGET" >"$WORK/hookdb.tsv" ||
		die "cannot read the hook table of $TARGET"
	export LSMCONV_HOOKDB="$WORK/hookdb.tsv"
	LSMCONV_TARGET=$(cd "$TARGET" && pwd)
	export LSMCONV_TARGET
	# Kernel macros spatch needs spelled out to parse converted code.
	cat >"$WORK/macros.h" <<-'EOF'
		#define DEFINE_LSM(lsm) static struct lsm_info __lsm_##lsm
		#define DEFINE_EARLY_LSM(lsm) static struct lsm_info __early_lsm_##lsm
		#define __lsm_ro_after_init
	EOF
}

# Legacy struct definitions, for positional initializers.
legacy_defs() {
	local i defs=()
	mkdir -p "$WORK/legacy"
	for i in "${!REL[@]}"; do
		if grep -qE 'struct[[:space:]]+security_operations[[:space:]]*\{' "$WORK/cur/${REL[$i]}"; then
			cp -- "$WORK/cur/${REL[$i]}" "$WORK/legacy/$i.h"
			defs+=("$WORK/legacy/$i.h")
		fi
	done
	LSMCONV_LEGACY_DEFS=$(
		IFS=:
		echo "${defs[*]:-}"
	)
	export LSMCONV_LEGACY_DEFS
}

# Record where spatch cannot parse a file: "path<TAB>line<TAB>relevant".
check_parse() {
	local i f out line relevant
	: >"$WORK/parse.tsv"
	for i in "${!REL[@]}"; do
		f="$WORK/cur/${REL[$i]}"
		out=$(spatch --macro-file "$WORK/macros.h" --parse-c "$f" 2>&1 || true)
		grep -q '^parse error' <<<"$out" || continue
		line=$(grep -A1 '^parse error' <<<"$out" | sed -n 's/^ = File ".*", line \([0-9]*\),.*/\1/p' | head -n 1)
		relevant=0
		if grep -E '^(bad|BAD:!!!!!):' <<<"$out" |
			grep -qE 'security_operations|security_ops|register_security|security_module_enable|security_initcall|secondary_ops'; then
			relevant=1
		fi
		printf '%s\t%s\t%s\n' "$f" "${line:-0}" "$relevant" >>"$WORK/parse.tsv"
	done
}

# Designated entries still inside a hook list after every rule are entries
# spatch never saw: it skips the #else branch of an #ifdef inside an
# initializer ("CPP-In Initializer passing").  A plain `.hook = fn,` of a
# target hook is rewritten here the way 20-hook-list.cocci would have done;
# anything else is todo.  Line numbers refer to the result.  Blank lines
# right after the opening brace of a hook list go.
check_leftovers() {
	local i f final
	final=$(($(cat "$WORK/nrules") + 1))
	for i in "${!REL[@]}"; do
		f="$WORK/cur/${REL[$i]}"
		awk -v k="$final" -v f="$f" -v items="$WORK/items.tsv" -v db="$LSMCONV_HOOKDB" '
			BEGIN {
				while ((getline l < db) > 0) {
					split(l, a, "\t")
					hook[a[1]] = 1
				}
			}
			/struct[ \t]+security_hook_list[^;]*=[ \t]*\{/ { inside = 1; opened = 1; print; next }
			# A blank line right after the opening brace (left when a comment
			# and .name went) is not kernel style.
			opened && /^[ \t]*$/ { next }
			{ opened = 0 }
			inside && /^[ \t]*\};/ { inside = 0; print; next }
			inside && /^[ \t]*\.[A-Za-z_0-9]+[ \t]*=/ {
				field = $0
				sub(/^[ \t]*\./, "", field)
				sub(/[ \t]*=.*/, "", field)
				if ((field in hook) && match($0, /^[ \t]*\.[A-Za-z_0-9]+[ \t]*=[ \t]*[A-Za-z_0-9]+[ \t]*,/)) {
					indent = $0; sub(/[^ \t].*/, "", indent)
					fn = substr($0, 1, RLENGTH); rest = substr($0, RLENGTH + 1)
					sub(/^[^=]*=[ \t]*/, "", fn); sub(/[ \t]*,$/, "", fn)
					print indent "LSM_HOOK_INIT(" field ", " fn ")," rest
					printf "%s\tLSMCONV\tentry\t%s\t%d\tLSM_HOOK_INIT(%s, %s) (in a preprocessor branch spatch skips; rewritten by convert.sh)\n", k, f, NR, field, fn >> items
					next
				}
				printf "%s\tLSMCONV\ttodo\t%s\t%d\tleft-over .%s entry in a hook list (spatch did not see it, e.g. in an #else branch): write LSM_HOOK_INIT() by hand\n", k, f, NR, field >> items
			}
			{ print }' "$f" >"$f.lsmconv-fix"
		if cmp -s -- "$f" "$f.lsmconv-fix"; then
			rm -f -- "$f.lsmconv-fix"
		else
			mv -f -- "$f.lsmconv-fix" "$f"
		fi
	done
	cp -a "$WORK/cur" "$WORK/snap/final"
}

rule_options() {
	sed -n 's|^// Options:[[:space:]]*||p' "$1" | head -n 1
}

run_rules() {
	local rules=() r k n opts
	mapfile -t rules < <(LC_ALL=C find "$HERE/cocci" -maxdepth 1 -name '[0-9]*.cocci' -type f | LC_ALL=C sort)
	if [[ -n "$RULES" ]]; then
		local want=",$RULES," kept=() num
		for r in "${rules[@]}"; do
			num=$(basename -- "$r")
			num=${num%%-*}
			[[ $want == *",$num,"* ]] && kept+=("$r")
		done
		[[ ${#kept[@]} -gt 0 ]] || die "--rules $RULES: no such rule in $HERE/cocci"
		rules=("${kept[@]}")
	fi
	n=${#rules[@]}
	k=0
	for r in "${rules[@]}"; do
		k=$((k + 1))
		echo "[$k/$n] rule $(basename -- "$r")" >&2
		cp -a "$WORK/cur" "$WORK/snap/$k"
		[[ ${#ORIG[@]} -gt 0 ]] || continue
		read -r -a opts <<<"$(rule_options "$r")"
		if ! spatch --sp-file "$r" -D patch --dir "$WORK/cur" --include-headers \
			--in-place --macro-file "$WORK/macros.h" --jobs "$JOBS" --python "$SPATCH_PY" \
			"${opts[@]}" >"$WORK/log/$k.out" 2>"$WORK/log/$k.err"; then
			tail -n 20 "$WORK/log/$k.err" >&2
			die "spatch failed on rule $(basename -- "$r")"
		fi
		grep -a "^LSMCONV	" "$WORK/log/$k.out" | sed "s|^|$k	|" >>"$WORK/items.tsv" || true
	done
	: >>"$WORK/items.tsv"
	echo "$n" >"$WORK/nrules"
}

# Markdown report; prints the number of todo items on stdout.
write_report() {
	"$SPATCH_PY" - "$WORK" "$TARGET" "$MODE" <<-'EOF'
		import difflib, os, sys
		work, target, mode = sys.argv[1:4]
		nrules = int(open(os.path.join(work, "nrules")).read())
		orig = {}
		for l in open(os.path.join(work, "map.tsv")):
		    if l.strip():
		        w, o = l.rstrip("\n").split("\t")
		        orig[w] = o
		cur = os.path.join(work, "cur")

		def snap(k, w):
		    return os.path.join(work, "snap", str(k), os.path.relpath(w, cur))

		def lines(p):
		    try:
		        with open(p, encoding="utf-8", errors="replace") as f:
		            return f.read().split("\n")
		    except OSError:
		        return []

		_maps = {}
		def step(k, w):
		    if (k, w) not in _maps:
		        nxt = "final" if k == nrules else k + 1
		        sm = difflib.SequenceMatcher(None, lines(snap(k, w)), lines(snap(nxt, w)), autojunk=False)
		        _maps[(k, w)] = sm.get_opcodes()
		    return _maps[(k, w)]

		def forward(k, w, line):
		    """Line `line` of file w as rule k saw it -> line in the result."""
		    i = line - 1
		    for kk in range(k, nrules + 1):
		        for tag, i1, i2, j1, j2 in step(kk, w):
		            if i1 <= i < i2:
		                if tag == "equal":
		                    i = j1 + (i - i1)
		                else:
		                    i = j1 + min(i - i1, max(j2 - j1 - 1, 0))
		                break
		    return i + 1

		files = {w: {"entry": 0, "call": 0, "capchain": 0, "special": 0, "reg": 0, "todo": 0}
		         for w in orig}
		items = []
		for l in open(os.path.join(work, "items.tsv"), encoding="utf-8", errors="replace"):
		    parts = l.rstrip("\n").split("\t", 5)
		    if len(parts) < 6:
		        continue
		    k, _, kind, path, line, detail = parts
		    w = path if path in orig else None
		    if w is None:
		        for cand in orig:
		            if os.path.realpath(cand) == os.path.realpath(path):
		                w = cand
		    if w is None:
		        # spatch names a file it re-parsed after a transformation
		        # /tmp/cocci_small_output-PID-HEX-BASENAME.
		        base = os.path.basename(path)
		        cands = [c for c in orig if base.endswith("-" + os.path.basename(c))]
		        if base.startswith("cocci_small_output") and len(cands) == 1:
		            w = cands[0]
		    if w is None:
		        w = path
		        files.setdefault(w, {"entry": 0, "call": 0, "capchain": 0, "special": 0, "reg": 0, "todo": 0})
		        orig.setdefault(w, path)
		    try:
		        ln = forward(int(k), w, int(line)) if os.path.exists(snap(int(k), w)) else int(line)
		    except ValueError:
		        ln = line
		    if detail.startswith("left-over ") and any(
		            it[0] == orig[w] and it[1] == ln and it[2] == "todo" for it in items):
		        continue
		    files[w][kind] = files[w].get(kind, 0) + 1
		    items.append((orig[w], ln, kind, detail))

		parse = []
		for l in open(os.path.join(work, "parse.tsv")):
		    if l.strip():
		        w, line, rel = l.rstrip("\n").split("\t")
		        parse.append((orig.get(w, w), int(line), rel == "1"))
		        if rel == "1":
		            files.setdefault(w, {"todo": 0})
		            files[w]["todo"] += 1
		            items.append((orig.get(w, w), int(line), "todo",
		                          "spatch cannot parse the code around this line and it "
		                          "mentions the legacy LSM API: not converted, do it by hand"))

		changed = 0
		for w in orig:
		    if os.path.exists(snap(1, w)) and lines(snap(1, w)) != lines(snap("final", w)):
		        changed += 1
		ntodo = sum(1 for it in items if it[2] == "todo")
		out = []
		out.append("# lsmconv report\n")
		out.append("- mode: %s" % mode)
		out.append("- target: %s" % target)
		out.append("- files: %d processed, %d changed" % (len(orig), changed))
		out.append("- files spatch could not parse: %d" % len(parse))
		out.append("- left for a human: %d\n" % ntodo)
		out.append("| file | entries | call sites | cap chains | special | registration | todo |")
		out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
		for w in sorted(orig, key=lambda x: orig[x]):
		    c = files.get(w, {})
		    out.append("| %s | %d | %d | %d | %d | %d | %d |" % (
		        orig[w], c.get("entry", 0), c.get("call", 0), c.get("capchain", 0),
		        c.get("special", 0), c.get("reg", 0), c.get("todo", 0)))
		out.append("")
		out.append("## Left for a human\n")
		todos = sorted((it for it in items if it[2] == "todo"), key=lambda it: (it[0], int(it[1])))
		if not todos:
		    out.append("Nothing.")
		for f, ln, kind, detail in todos:
		    out.append("- %s:%s: %s" % (f, ln, detail))
		out.append("")
		if parse:
		    out.append("## Files spatch could not parse\n")
		    for f, ln, rel in sorted(parse):
		        out.append("- %s:%d: parse error%s" % (
		            f, ln, " in code that uses the legacy LSM API" if rel else
		            " (no legacy LSM API in the unparsed code)"))
		    out.append("")
		for title, kinds in (("Registration", ("reg",)), ("Special-table uses", ("special",)),
		                     ("Cap chains kept", ("capchain",))):
		    sel = sorted((it for it in items if it[2] in kinds), key=lambda it: (it[0], int(it[1])))
		    if kinds == ("capchain",):
		        # the rule's detail says "...: kept: <reason>" (removed ones are only counted)
		        sel = [it for it in sel if ": kept" in it[3]]
		    if sel:
		        out.append("## %s\n" % title)
		        for f, ln, kind, detail in sel:
		            out.append("- %s:%s: %s" % (f, ln, detail))
		        out.append("")
		with open(os.path.join(work, "report.md"), "w") as fh:
		    fh.write("\n".join(out))
		print(ntodo)
	EOF
}

# Copy each result next to its destination, then rename it into place.
install_results() {
	local i dst tmp
	local -a dsts=()
	for i in "${!ORIG[@]}"; do
		if [[ -n "$OUT" ]]; then
			if [[ $MODE == tree ]]; then
				dst="$OUT/${REL[$i]}"
			else
				dst="$OUT/$(basename -- "${ORIG[$i]}")"
			fi
		else
			cmp -s -- "${ORIG[$i]}" "$WORK/cur/${REL[$i]}" && continue
			dst=${ORIG[$i]}
		fi
		mkdir -p -- "$(dirname -- "$dst")"
		tmp="$dst.lsmconv-tmp.$$"
		cp -- "$WORK/cur/${REL[$i]}" "$tmp"
		if [[ -z "$OUT" ]]; then
			chmod --reference="${ORIG[$i]}" -- "$tmp"
		fi
		dsts+=("$dst")
	done
	for dst in "${dsts[@]}"; do
		mv -f -- "$dst.lsmconv-tmp.$$" "$dst"
	done
}

main() {
	local ntodo
	parse_args "$@"
	check_target
	check_outputs
	collect_files
	setup_work
	legacy_defs
	check_parse
	run_rules
	check_leftovers
	ntodo=$(write_report)
	if [[ -s "$WORK/parse.tsv" ]]; then
		echo "$PROG: $(wc -l <"$WORK/parse.tsv") file(s) spatch could not parse completely (see the report)" >&2
	fi
	install_results
	if [[ -n "$REPORT" ]]; then
		cp -- "$WORK/report.md" "$REPORT"
	else
		cat -- "$WORK/report.md"
	fi
	if [[ $ntodo -gt 0 ]]; then
		echo "$PROG: $ntodo item(s) left for a human (see the report)" >&2
		[[ $ALLOW_PARTIAL -eq 1 ]] || exit 1
	fi
}

main "$@"

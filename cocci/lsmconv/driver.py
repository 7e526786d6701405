# SPDX-License-Identifier: GPL-2.0
"""The converter's driver: `convert.sh tree|file` (docs/converter.md).

    python3 -m lsmconv.driver tree DIR [options]
    python3 -m lsmconv.driver file FILE... [options]

Runs the rules (cocci/manifest.tsv: which, in which order) over copies of the
inputs, turns what they print into items (lsmconv.items), renders report.md
from the items (lsmconv.report) and only then writes the results: in place
through the original files, or into --out.

Exit status (lsmconv.exits, docs/CONTRACTS.md): 0 done, 1 todos left, 2 usage,
input or setup error (nothing written), 3 failure after writing started (the
message names what was written), 130/143 interrupted by SIGINT/SIGTERM
(nothing written: children stopped, temporary files removed, outputs as
before).
"""
import concurrent.futures
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from . import claims
from . import exits
from . import fsio
from . import hooks as H
from . import items as I
from . import linemap
from . import manifest as M
from . import names
from . import paths as P
from . import report as R
from . import source


PROG = os.environ.get("LSMCONV_PROG", "convert.sh")
ROOT, COCCI = P.ROOT, P.COCCI
DEFAULT_TARGET = P.default_tree()

# Files of the target tree the rules read; a target without one of them
# would convert silently wrong.  (file, who reads it and why)
# The hook table (names, types, defaults: every rule) is lsmconv.hooks.source_of():
# lsm_hook_defs.h, or a legacy tree's own struct security_operations.
TARGET_FILES = (
    ("include/linux/security.h", "rule 40: the capability functions it declares"),
    ("security/security.c", "rules 40 and 60: how each hook is dispatched, the calling macros"),
    ("security/commoncap.c", "rule 40: the capability functions it defines"),
    ("security/Kconfig", "rule 51: whether a stacking option still exists"),
)

# What the tree mode converts: (directory, suffix, recursive, pattern).
TREE_FILES = (
    ("security", ".c", True, rb"security_operations|security_ops|SECURITY_YAMA_STACKED|"
     rb"security_module_enable|register_security|reset_security_ops"),
    ("security", ".h", True, rb"security_operations|security_ops|register_security|"
     rb"reset_security_ops"),
    ("include/linux", ".h", False, rb"security_operations|security_ops"),
)

# Macros spatch needs spelled out to parse converted code.
MACROS = """#define DEFINE_LSM(lsm) static struct lsm_info __lsm_##lsm
#define DEFINE_EARLY_LSM(lsm) static struct lsm_info __early_lsm_##lsm
#define __lsm_ro_after_init
"""

LEGACY_STRUCT = re.compile(rb"struct[^\S\n]+security_operations[^\S\n]*\{")
PARSE_WORDS = re.compile(r"security_operations|security_ops|register_security|"
                         r"security_module_enable|security_initcall|secondary_ops")
SMALL_OUTPUT = names.SMALL_OUTPUT
BOM = b"\xef\xbb\xbf"
# what spatch prints when a script rule raised (it still exits 0)
PYTHON_FAILURE = re.compile(r"^Error in Python script|Python failure|^Traceback \(most recent", re.M)
HEARTBEAT = 30

USAGE = """\
usage: convert.sh tree DIR [options]
       convert.sh file FILE... [options]
       convert.sh series [series options]   (see convert.sh series --help)
       convert.sh port DIR --name NAME [options]  (see convert.sh port --help)
options: --target TREE   kernel tree whose lsm_hook_defs.h (or, for a legacy
                         tree stacked in its own version, struct
                         security_operations) gives the hooks
                         (default: the distro tree in build/ next to convert.sh)
         --out DIR       write the results under DIR instead of in place (DIR
                         must be missing, empty or written by lsmconv before)
         --force         write into a non-empty --out DIR lsmconv did not make
         --report FILE   write the Markdown report to FILE (default: stdout)
         --items FILE    write the items (one JSON object a line) to FILE
         --allow-partial exit 0 even when something was left for a human
         --jobs N        spatch processes (default: the CPUs this process
                         may run on)
         --rules LIST    only the rules whose id is in LIST (e.g. 30 or
                         10,11,20); default every rule of cocci/manifest.tsv
         --profile FILE  write each step's wall, user and system seconds
                         (its children's CPU) to FILE, tab-separated
         --              end of options: every later argument is a path
An option value may not start with '-' (write --out=VALUE or ./-name).

Exit status: 0 everything converted (or --allow-partial), 1 something was
left for a human (a todo), 2 usage, input or setup error (nothing written),
3 failure after writing started (the message names what was written),
130/143 interrupted (SIGINT/SIGTERM; nothing written).
See docs/converter.md.
"""


Fail, Interrupted = exits.Fail, exits.Interrupted


# --- signals and children ----------------------------------------------------

# SIGINT/SIGTERM: exits.catch_signals, exits.Signals; the children running
# (Popen objects, each its own process group) are stopped by run()
_CHILDREN = set()


def _stop_children():
    for p in list(_CHILDREN):
        for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
            try:
                os.killpg(p.pid, sig)
            except OSError:
                break
            try:
                p.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        # the group may outlive its leader (spatch --jobs workers): kill
        # it and wait until it is gone
        for _ in range(100):
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                break
            time.sleep(0.05)
        _CHILDREN.discard(p)


def run(cmd, env=None, stdout=None, stderr=None, progress=None):
    """Run a child in its own process group (so that SIGINT/SIGTERM stop it
    and its workers); return its exit status.  progress: text of a line
    printed every HEARTBEAT seconds while it runs."""
    # no signal between the fork and the bookkeeping: a child started but not
    # yet known would outlive an interrupt (the child unblocks them again)
    sigs = {signal.SIGINT, signal.SIGTERM}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, sigs)
    try:
        p = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=stdout,
                             stderr=stderr, process_group=0,
                             preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_UNBLOCK, sigs))
        _CHILDREN.add(p)
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        raise
    done = threading.Event()
    if progress:
        threading.Thread(target=_heartbeat, args=(progress, done), daemon=True).start()
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        # a blocking wait: Popen.wait(timeout) polls with sleeps of up to
        # 50 ms, which the driver paid once per child
        return p.wait()
    finally:
        done.set()
        if p.returncode is None:
            _stop_children()
        _CHILDREN.discard(p)


def _heartbeat(progress, done):
    """Say that progress is still running every HEARTBEAT seconds until
    done is set."""
    start = time.monotonic()
    while not done.wait(HEARTBEAT):
        say("%s: still running (%d s)" % (progress, time.monotonic() - start))


def say(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


# --- arguments ---------------------------------------------------------------

class Options:
    mode = None
    target = DEFAULT_TARGET
    out = None
    report = None
    items = None
    allow_partial = False
    force = False
    jobs = len(os.sched_getaffinity(0))
    rules = None
    profile = None

    def __init__(self):
        self.inputs = []
        self.rule_files = []    # [(path, kind)]: rule_files()
        self.skipped = []       # [(path, why)]: tree mode, not read (todos)
        self.out_state = None   # fsio.out_state(--out) when checked
        self.lock = None        # the --out lock (fsio.lock_dir)


def usage_error(msg):
    raise Fail("%s (see %s --help)" % (msg, PROG))


def parse_args(argv):
    o = Options()
    if not argv:
        sys.stderr.write(USAGE)
        raise Fail(None)
    # --help anywhere before "--" wins over every other argument
    if {"-h", "--help"} & set(argv[:argv.index("--")] if "--" in argv else argv):
        return None
    if argv[0] not in ("tree", "file"):
        usage_error("first argument must be 'tree', 'file' or 'series', not '%s'" % argv[0])
    o.mode = argv[0]
    valued = {"--target": "a directory", "--out": "a directory", "--report": "a file name",
              "--items": "a file name", "--jobs": "a positive number",
              "--rules": "a comma-separated list of rule ids",
              "--profile": "a file name"}
    i, rest = 1, False
    while i < len(argv):
        a = argv[i]
        i += 1
        if rest or not a.startswith("-") or a == "-":
            o.inputs.append(a)
            continue
        if a == "--":
            rest = True
            continue
        if a in ("-h", "--help"):
            return None
        if a == "--allow-partial":
            o.allow_partial = True
            continue
        if a == "--force":
            o.force = True
            continue
        name, eq, value = a.partition("=")
        if name not in valued:
            usage_error("unknown option '%s'" % a)
        if not eq:
            if i >= len(argv):
                usage_error("%s needs %s" % (name, valued[name]))
            value = argv[i]
            i += 1
            if value.startswith("-"):
                usage_error("%s needs %s, not the option-like '%s' (write %s=%s to mean it)"
                            % (name, valued[name], value, name, value))
        if value == "":
            usage_error("%s needs %s" % (name, valued[name]))
        if name == "--jobs":
            if not re.match(r"^[1-9][0-9]*$", value):
                usage_error("--jobs needs a positive number")
            o.jobs = int(value)
        elif name == "--rules":
            if not re.match(r"^[0-9]+(,[0-9]+)*$", value):
                usage_error("--rules needs a comma-separated list of rule ids")
            o.rules = value
        else:
            setattr(o, name[2:], value)
    if not o.inputs:
        usage_error("%s mode needs at least one path" % o.mode)
    if o.mode == "tree" and len(o.inputs) != 1:
        usage_error("tree mode takes exactly one directory")
    return o


# --- inputs ------------------------------------------------------------------

class Input:
    """One file to convert: the user's path, its path relative to the work
    copy, its bytes as read, and whether it is CRLF."""

    def __init__(self, orig, rel, data, st):
        self.orig = orig
        self.orel = rel         # path under --out (tree mode)
        self.rel = rel
        self.data = data
        self.st = st
        self.crlf = fsio.crlf(data)
        self.work = None        # absolute path of the work copy
        self.final = None       # bytes to write (line endings restored)

    def to_work(self):
        # a UTF-8 BOM is not C to spatch: converted without it, put back
        data = self.data[len(BOM):] if self.data.startswith(BOM) else self.data
        return data.replace(b"\r\n", b"\n") if self.crlf else data

    def from_work(self, data):
        data = data.replace(b"\n", b"\r\n") if self.crlf else data
        return BOM + data if self.data.startswith(BOM) else data


def check_target(target):
    if not os.path.isdir(target):
        raise Fail("--target %s: not a directory" % target)
    if H.source_of(target) is None:
        raise Fail("--target %s: neither include/linux/lsm_hook_defs.h nor a struct "
                   "security_operations (read for the hook table: every rule): not a kernel "
                   "tree the rules can use" % target)
    need = list(TARGET_FILES)
    if os.path.isfile(os.path.join(target, "include/linux/lsm_hook_defs.h")):
        # a stacked tree: without it the target looks older than 5.1 and
        # security_initcall() would be kept with nothing to say so
        need.append(("include/linux/lsm_hooks.h", "rules 11, 12 and 20 (lsmconv.form): "
                     "the registration form, DEFINE_LSM, __lsm_ro_after_init"))
    for rel, why in need:
        if not os.path.isfile(os.path.join(target, rel)):
            raise Fail("--target %s: no %s (read for %s): not a kernel tree the rules can use"
                       % (target, rel, why))


def _grep(path, pattern):
    try:
        return re.search(pattern, fsio.read_file(path)[0]) is not None
    except OSError as e:
        raise Fail("cannot read %s: %s" % (path, e.strerror))


def tree_files(tree):
    """(rels, skipped): the relative paths (str, C-locale order) of the files
    tree mode converts, and [(rel, why)] of what it did not read that may
    hold legacy code.  Regular files only (found with lstat/stat: a FIFO or
    a device is never opened); a file reached twice (a symlink or a hard
    link inside the tree) counts once; a symlink to a file outside the tree
    is not followed, and named when that file mentions the legacy API; a
    FIFO, device, socket, dangling or looping link with a converted suffix
    is named; so is a symlink to a directory outside the converted area."""
    real_tree = os.path.realpath(tree)
    found, skipped, seen, links = [], [], set(), []
    for top, suffix, recursive, pattern in TREE_FILES:
        base = os.path.join(tree, top)
        real_base = os.path.realpath(base)
        for d, dirs, files in os.walk(base):
            if not recursive:
                dirs[:] = []
            for x in dirs:
                p = os.path.join(d, x)
                if os.path.islink(p) and not fsio.within(os.path.realpath(p), real_base):
                    skipped.append((os.path.relpath(p, tree), (
                        "not read: a symlink to the directory %s, outside %s/: convert its "
                        "files with convert.sh file or tree" % (os.readlink(p), top))))
            for f in sorted(files):
                if not f.endswith(suffix):
                    continue
                p = os.path.join(d, f)
                rel = os.path.relpath(p, tree)
                why = fsio.input_problem(p)
                if why:
                    skipped.append((rel, "not read: %s (only regular files are converted)"
                                    % why))
                    continue
                if os.path.islink(p):
                    links.append((rel, p, pattern))
                    continue
                st = os.stat(p)
                if (st.st_dev, st.st_ino) in seen:
                    continue
                seen.add((st.st_dev, st.st_ino))
                if _grep(p, pattern):
                    found.append(rel)
    for rel, p, pattern in links:
        st = os.stat(p)
        if (st.st_dev, st.st_ino) in seen:
            continue    # its target inside the tree is converted (or clean)
        seen.add((st.st_dev, st.st_ino))
        if not _grep(p, pattern):
            continue
        if fsio.within(os.path.realpath(p), real_tree):
            found.append(rel)
        else:
            skipped.append((rel, "not converted: a symlink to %s, outside the tree; convert "
                            "that file with convert.sh file" % os.readlink(p)))
    return sorted(found, key=os.fsencode), sorted(skipped, key=lambda x: os.fsencode(x[0]))


def collect(o):
    inputs = []
    if o.mode == "tree":
        tree = o.inputs[0]
        if not (os.path.isdir(os.path.join(tree, "security")) and
                os.path.isdir(os.path.join(tree, "include/linux"))):
            raise Fail("not a kernel tree (no security/ and include/linux/): %s" % tree)
        rels, skipped = tree_files(tree)
        for rel in rels:
            orig = tree + "/" + rel
            inputs.append(_read_input(orig, rel))
        for rel, why in skipped:
            say("%s: %s/%s: %s" % (PROG, tree, rel, why))
            o.skipped.append((tree + "/" + rel, why))
    else:
        seen, ids = {}, {}
        for n, f in enumerate(o.inputs):
            if not os.path.lexists(f):
                raise Fail("no such file: %s" % f)
            why = fsio.input_problem(f)
            if why:
                raise Fail("%s: %s: only regular files are converted" % (f, why))
            if not os.access(f, os.R_OK):
                raise Fail("cannot read: %s" % f)
            base = os.path.basename(f)
            if o.out and base in seen:
                raise Fail("two inputs named %s: --out cannot hold both (%s)" % (base, f))
            seen[base] = f
            inp = _read_input(f, "f%d/%s" % (n, fsio.safe_name(base)))
            key = (inp.st.st_dev, inp.st.st_ino)
            if key in ids:
                raise Fail("%s and %s are the same file" % (ids[key], f))
            ids[key] = f
            inputs.append(inp)
    if o.mode == "tree":
        _safe_rels(inputs)
    if not o.out:
        for inp in inputs:
            # the mode bits too: root may write a 0444 file, a maintainer
            # who made it read-only does not want it rewritten
            if not os.access(os.path.realpath(inp.orig), os.W_OK) or \
                    not inp.st.st_mode & 0o222:
                raise Fail("cannot write %s (read-only, mode %o): nothing converted; "
                           "make it writable or use --out DIR"
                           % (inp.orig, inp.st.st_mode & 0o7777))
    return inputs


def check_clashes(o, inputs):
    """The output-safety layer (fsio.check_paths) before any work: no
    output (--report, --items, --profile, --out and every file written
    into it) is an input (a converted file, the tree, a file of the target
    the rules read) or another output; then one run per --out
    (fsio.lock_dir)."""
    ins = [("", inp.orig) for inp in inputs]
    if o.mode == "tree":
        ins.append(("tree", o.inputs[0]))
    ins += [("--target file", os.path.join(o.target, rel)) for rel, _ in TARGET_FILES]
    if H.source_of(o.target):
        ins.append(("--target file", H.source_of(o.target)))
    outs = [("--report", o.report), ("--items", o.items), ("--profile", o.profile)]
    if o.out:
        outs += [("--out", o.out), ("--out", os.path.join(o.out, fsio.MARKER))]
        outs += [("--out", os.path.join(o.out, _dest(o, inp))) for inp in inputs]
    try:
        fsio.check_paths(ins, outs)
        if o.out and o.out_state != "missing":
            # on the directory itself: nothing written (a new --out is
            # renamed into place whole; a second run's rename then fails)
            o.lock = fsio.lock_dir(o.out, beside=False)
    except fsio.Clash as e:
        raise Fail(str(e))


def _dest(o, inp):
    """Where --out holds inp: its path relative to the tree, or its base name."""
    if o.mode == "tree":
        return inp.orel
    return os.path.basename(inp.orig)


def _read_input(orig, rel):
    try:
        data, st = fsio.read_file(orig)
    except OSError as e:
        raise Fail("cannot read %s: %s" % (orig, e.strerror))
    return Input(orig, rel, data, st)


def _safe_rels(inputs):
    """Work-copy paths spatch can be given (it runs shell commands with
    unquoted file names): odd characters become '_', clashes get a number."""
    used = set()
    for inp in inputs:
        parts = [fsio.safe_name(p) for p in inp.rel.split("/")]
        rel = "/".join(parts)
        n = 1
        while rel in used:
            stem, ext = os.path.splitext(parts[-1])
            rel = "/".join(parts[:-1] + ["%s_%d%s" % (stem, n, ext)])
            n += 1
        used.add(rel)
        inp.rel = rel


def check_outputs(o):
    if o.out:
        state = o.out_state = fsio.out_state(o.out)
        if state == "not-a-directory":
            raise Fail("--out is not a directory: %s" % o.out)
        if state == "foreign" and not o.force:
            raise Fail("--out %s is not empty and was not written by lsmconv (no %s): "
                       "give an empty or new directory, or --force to write into it"
                       % (o.out, fsio.MARKER))
        d = o.out if state != "missing" else _existing_parent(o.out)
        if not os.access(d, os.W_OK | os.X_OK):
            raise Fail("--out %s: cannot write in %s" % (o.out, d))
    for path, what in ((o.report, "--report"), (o.items, "--items"),
                       (o.profile, "--profile")):
        if path:
            if o.out and o.out_state == "missing" and \
                    os.path.dirname(os.path.abspath(path)) == os.path.abspath(o.out) and \
                    not os.path.lexists(path):
                continue    # in the --out this run makes (docs/porting.md's example)
            why = fsio.check_output(path, what)
            if why:
                raise Fail(why)


def _existing_parent(path):
    p = os.path.abspath(path)
    while not os.path.isdir(p):
        if os.path.lexists(p):
            raise Fail("--out %s: %s is not a directory" % (path, p))
        p = os.path.dirname(p)
    return p


# --- the work directory ------------------------------------------------------

def make_work():
    """A temporary directory whose path spatch can take (no blanks or shell
    characters: spatch runs shell commands with unquoted file names)."""
    base = os.environ.get("TMPDIR") or "/tmp"
    if not (fsio.spatch_safe(os.path.abspath(base)) and os.path.isdir(base)
            and os.access(base, os.W_OK | os.X_OK)):
        say("%s: TMPDIR %s cannot hold spatch's files (missing, not writable, or a name "
            "with blanks or shell characters): working in /tmp" % (PROG, base))
        base = "/tmp"
    work = tempfile.mkdtemp(prefix="lsmconv.", dir=base)
    work = os.path.abspath(work)
    if not fsio.spatch_safe(work):
        shutil.rmtree(work, ignore_errors=True)
        raise Fail("no temporary directory spatch can use (TMPDIR=%s)" % base)
    return work


class Work:
    def __init__(self, o, inputs):
        self.o = o
        self.inputs = inputs
        self.dir = make_work()
        try:
            self._fill(o, inputs)
        except BaseException:
            # a bad target (hooks.load exits on an lsm_hook_defs.h it cannot
            # read), a full disk: the work directory goes with the failure
            fsio.remove_tree(self.dir, ROOT)
            raise

    def _fill(self, o, inputs):
        self.cur = os.path.join(self.dir, "cur")
        for sub in ("cur", "log", "legacy", "tmp"):
            os.mkdir(os.path.join(self.dir, sub))
        for inp in inputs:
            inp.work = os.path.join(self.cur, inp.rel)
            os.makedirs(os.path.dirname(inp.work), exist_ok=True)
            fsio.write_new(inp.work, inp.to_work(), 0o644)
        self.macros = os.path.join(self.dir, "macros.h")
        fsio.write_new(self.macros, MACROS.encode())
        self.hooks = set(H.load(o.target))
        # the hook table file: lsmconv.hooks opens lsm_hook_defs.h itself,
        # not through lsmconv.source, so its read is recorded here
        # (LSMCONV_READS: what a conversion read, lsmconv.port's cache key)
        if H.source_of(o.target):
            source.record(H.source_of(o.target))
        self.legacy = []
        for n, inp in enumerate(inputs):
            if LEGACY_STRUCT.search(inp.to_work()):
                p = os.path.join(self.dir, "legacy", "%d.h" % n)
                fsio.write_new(p, inp.to_work())
                self.legacy.append(p)
        # spatch needs a HOME it can use ("Not_found" without one)
        self.env = dict(os.environ, TMPDIR=os.path.join(self.dir, "tmp"),
                        HOME=fsio.spatch_home(self.dir))

    def read(self, inp):
        with open(inp.work, "rb") as f:
            return f.read()

    def snapshot(self):
        return {inp.rel: self.read(inp) for inp in self.inputs}


def text_lines(data):
    return data.decode("utf-8", "replace").split("\n")


# --- steps -------------------------------------------------------------------

class Profile:
    """Wall, user and system seconds of each step (the CPU its children
    used): rows (step, wall, user, sys), written by --profile."""

    def __init__(self):
        self.rows = []

    def step(self, name):
        return _Timed(self, name)

    def tsv(self):
        out = ["step\twall\tuser\tsys"]
        out += ["%s\t%.2f\t%.2f\t%.2f" % r for r in self.rows]
        return ("\n".join(out) + "\n").encode()


class _Timed:
    def __init__(self, prof, name):
        self.prof, self.name = prof, name

    def __enter__(self):
        self.wall = time.monotonic()
        self.ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        return self

    def __exit__(self, *exc):
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.prof.rows.append((self.name, time.monotonic() - self.wall,
                               ru.ru_utime - self.ru.ru_utime,
                               ru.ru_stime - self.ru.ru_stime))
        return False


def check_parse(w):
    """Where spatch cannot parse a file: [(input, line, relevant)].  The
    files are parsed --jobs at a time, each with its own log."""
    if not w.inputs:
        return []
    say("checking that spatch parses %d file(s)" % len(w.inputs))

    def parse(n_inp):
        n, inp = n_inp
        log = os.path.join(w.dir, "log", "parse-%d.out" % n)
        with open(log, "wb") as f:   # work: the parse log
            rc = run(["spatch", "--macro-file", w.macros, "--parse-c", inp.work], env=w.env,
                     stdout=f, stderr=subprocess.STDOUT, progress="parsing %s" % inp.orig)
        with open(log, "rb") as f:
            text = f.read().decode("utf-8", "replace")
        why = claims.failure(rc, text)
        if why:
            raise Fail("spatch failed to parse %s (%s): nothing converted, nothing written"
                       % (inp.orig, why))
        return parse_errors(inp, text.split("\n"))

    with concurrent.futures.ThreadPoolExecutor(max_workers=w.o.jobs) as ex:
        found = list(ex.map(parse, enumerate(w.inputs)))
    return [x for x in found if x is not None]


def parse_errors(inp, lines):
    """(inp, line, relevant) from spatch --parse-c's output, or None when
    it parsed the file completely."""
    first = None
    for n, text in enumerate(lines):
        if text.startswith("parse error"):
            first = n
            break
    if first is None:
        return None
    line = 0
    for text in lines[first:first + 2]:
        m = re.match(r'^ = File ".*", line ([0-9]*),', text)
        if m:
            line = int(m.group(1) or 0)
            break
    # every parse error's following line, as grep -A1 gives them
    if line == 0:
        for n, text in enumerate(lines):
            if text.startswith("parse error") and n + 1 < len(lines):
                m = re.match(r'^ = File ".*", line ([0-9]*),', lines[n + 1])
                if m:
                    line = int(m.group(1) or 0)
                    break
    relevant = any(re.match(r"^(bad|BAD:!!!!!):", t) and PARSE_WORDS.search(t)
                   for t in lines)
    return (inp, line, relevant)


def rule_files(o):
    """[(path, kind)] of the rules to run, in the manifest's order: --rules
    or every rule."""
    try:
        m = M.load()
        rules = m.select(o.rules.split(",") if o.rules else None)
    except M.ManifestError as e:
        raise Fail("--rules %s: %s" % (o.rules, e) if o.rules else str(e))
    out = []
    for r in rules:
        path = m.rule_path(r)
        if not os.path.isfile(path) or os.path.islink(path):
            raise Fail("%s:%d: rule %s: no file cocci/%s" % (m.where(), r.line, r.id, r.file))
        out.append((path, r.kind))
    return out


def rule_options(path):
    return M.header(path, "Options").split()


def work_files(top):
    out = []
    for d, _dirs, files in os.walk(top):
        out += [os.path.join(d, f) for f in files]
    return sorted(out, key=os.fsencode)


def run_rules(w, prof):
    """Run every rule; returns (raw findings, snapshots, small outputs).
    raw: [(k, rule name, kind, path, line, detail)]; snaps[k] is the state
    before rule k (1-based), snaps[n + 1] the state after the last rule;
    small: {spatch temp file: its lines}."""
    rules = w.o.rule_files
    n = len(rules)
    raw, snaps, small = [], {}, {}
    for k, (r, kind) in enumerate(rules, 1):
        name = os.path.basename(r)
        say("[%d/%d] rule %s" % (k, n, name))
        snaps[k] = w.snapshot()
        if not w.inputs:
            continue
        tmp = os.path.join(w.dir, "tmp", str(k))
        os.mkdir(tmp)
        # A rule whose `// Text pass:` header names a module is a text pass
        # (what SmPL cannot express): that module runs over the files.
        text_pass = M.text_pass(r)
        if bool(text_pass) != (kind == "text"):
            raise Fail("rule %s is kind %s in cocci/manifest.tsv, but %s a `// Text pass:` header"
                       % (name, kind, "has" if text_pass else "has no"))
        if text_pass:
            cmd = [sys.executable, "-m", text_pass, "--target",
                   os.path.abspath(w.o.target)] + work_files(w.cur)
        else:
            cmd = ["spatch", "--sp-file", r, "-D", "patch",
                   "-D", "lsmconv=" + COCCI, "-D", "target=" + os.path.abspath(w.o.target)]
            if w.legacy:
                cmd += ["-D", "legacy=" + ":".join(w.legacy)]
            cmd += ["--dir", w.cur, "--include-headers", "--in-place",
                    "--macro-file", w.macros, "--jobs", str(w.o.jobs),
                    "--python", sys.executable,
                    "--temp-files", tmp, "--save-tmp-files",
                    # --jobs > 1: the workers' output directories, else made
                    # in the current directory
                    "--tmp-dir", os.path.join(tmp, "jobs")] + rule_options(r)
        out = os.path.join(w.dir, "log", "%d.out" % k)
        err = os.path.join(w.dir, "log", "%d.err" % k)
        # work: the rule's logs
        with open(out, "wb") as fo, open(err, "wb") as fe, prof.step("rule " + name):
            rc = run(cmd, env=dict(w.env, TMPDIR=tmp), stdout=fo, stderr=fe,
                     progress="[%d/%d] rule %s" % (k, n, name))
        with open(err, "rb") as f:
            errtext = f.read().decode("utf-8", "replace")
        # spatch exits 0 when a rule's Python fails: that rule then changed
        # nothing, which must not pass for a conversion
        crashed = not text_pass and PYTHON_FAILURE.search(errtext)
        # and when it gives up on a file (EXN: Stack overflow, ...) or is killed
        with open(out, "rb") as f:
            outtext = f.read().decode("utf-8", "replace")
        why = claims.failure(rc, errtext if text_pass else errtext + "\n" + outtext)
        if why or crashed:
            tail = errtext.split("\n")[-21:]
            sys.stderr.write("\n".join(tail).rstrip("\n") + "\n")
            work = {inp.work: inp.orig for inp in w.inputs}
            names = [work.get(f, f) for f in claims.failed_files(errtext + "\n" + outtext)] \
                or [inp.orig for inp in w.inputs]
            if len(names) > 5:
                names[5:] = ["%d more" % (len(names) - 5)]
            raise Fail("%s failed on rule %s%s (%s): nothing converted, nothing written"
                       % ("text pass " + text_pass if text_pass else "spatch", name,
                          " for " + ", ".join(names) if names else "",
                          "a Python error in the rule" if crashed else why))
        with open(out, "rb") as f:
            for text in f.read().decode("utf-8", "surrogateescape").split("\n"):
                p = I.parse_line(text)
                if p:
                    kind, path, line, detail = p
                    raw.append((k, name[:-len(".cocci")], kind, path, line, detail))
                    if SMALL_OUTPUT.match(os.path.basename(path)) and path not in small:
                        try:
                            with open(path, "rb") as sf:
                                small[path] = text_lines(sf.read())
                        except OSError:
                            pass
        if not os.environ.get("LSMCONV_KEEP_WORK"):
            shutil.rmtree(tmp, ignore_errors=True)
    snaps[n + 1] = w.snapshot()
    return n, raw, snaps, small


HOOK_LIST = re.compile(r"struct[ \t]+security_hook_list[^;]*=[ \t]*\{")
ENTRY = re.compile(r"^[ \t]*\.[A-Za-z_0-9]+[ \t]*=")
PLAIN_ENTRY = re.compile(r"^[ \t]*\.[A-Za-z_0-9]+[ \t]*=[ \t]*[A-Za-z_0-9]+[ \t]*,")


def fix_leftovers(text, hooks):
    """The last pass over a converted file: designated `.hook = fn,`
    entries still inside a security_hook_list array are entries spatch
    never saw (it drops the #else branch of an #ifdef in an initializer):
    a plain one of a target hook becomes LSM_HOOK_INIT(hook, fn), anything
    else is a todo; a blank line right after a hook list's opening brace
    goes; a hook list's declaration keeps one section attribute
    (claims.one_section).  Returns (text, [(kind, line in the result,
    detail)])."""
    ends = text.endswith("\n")
    lines = text.split("\n")
    if ends:
        lines.pop()
    out, found = [], []
    inside = opened = False
    for t in lines:
        if HOOK_LIST.search(t):
            inside = opened = True
            out.append(claims.one_section(t))
            continue
        if opened and re.match(r"^[ \t]*$", t):
            continue
        opened = False
        if inside and re.match(r"^[ \t]*\};", t):
            inside = False
            out.append(t)
            continue
        if inside and ENTRY.match(t):
            field = re.sub(r"[ \t]*=.*", "", re.sub(r"^[ \t]*\.", "", t, count=1), count=1)
            m = PLAIN_ENTRY.match(t)
            if field in hooks and m:
                indent = re.match(r"^[ \t]*", t).group(0)
                fn = re.sub(r"[ \t]*,$", "", re.sub(r"^[^=]*=[ \t]*", "", m.group(0), count=1))
                out.append("%sLSM_HOOK_INIT(%s, %s),%s" % (indent, field, fn, t[m.end():]))
                found.append(("entry", len(out), "LSM_HOOK_INIT(%s, %s) (in a preprocessor "
                              "branch spatch skips; rewritten by convert.sh)" % (field, fn)))
                continue
            found.append(("todo", len(out) + 1, "left-over .%s entry in a hook list (spatch "
                          "did not see it, e.g. in an #else branch): write LSM_HOOK_INIT() "
                          "by hand" % field))
        out.append(t)
    return "\n".join(out) + ("\n" if ends else ""), found


class Mapper:
    """Maps a rule's (file, line) to the user's file and the line in the
    result, through every later rule's changes."""

    def __init__(self, w, n, snaps, final, small):
        self.w, self.n, self.snaps, self.final, self.small = w, n, snaps, final, small
        self.by_work = {inp.work: inp for inp in w.inputs}
        self.by_real = {os.path.realpath(inp.work): inp for inp in w.inputs}
        self.maps = {}

    def step(self, k, inp):
        """The line map of rule k's changes (the last rule's includes the
        last pass)."""
        key = (k, inp.rel)
        if key not in self.maps:
            a = self.snaps[k][inp.rel]
            b = self.final[inp.rel] if k == self.n else self.snaps[k + 1][inp.rel]
            if a == b:
                self.maps[key] = None
            else:
                la, lb = text_lines(a), text_lines(b)
                self.maps[key] = linemap.Map(
                    linemap.opcodes(la, lb, tmpdir=self.w.dir, runner=_diff), la, lb)
        return self.maps[key]

    def forward(self, k, inp, line):
        """0-based line of inp as rule k saw it -> 0-based line in the result."""
        for kk in range(k, self.n + 1):
            m = self.step(kk, inp)
            if m is not None:
                line = m.forward(line)
        return line

    def resolve(self, k, path, line):
        """(Input or None, 1-based line in the result)."""
        inp = self.by_work.get(path) or self.by_real.get(os.path.realpath(path))
        if inp:
            return inp, (self.forward(k, inp, line - 1) + 1) if line > 0 else line
        m = SMALL_OUTPUT.match(os.path.basename(path))
        if m and path in self.small:
            # spatch re-parsed one top-level element after a transformation
            # and names a temporary file holding just that element: find
            # it in the state after rule k.
            best = None
            for inp in self.w.inputs:
                if os.path.basename(inp.rel) != m.group(1):
                    continue
                after = text_lines(self.snaps[k + 1][inp.rel])
                found = linemap.locate(self.small[path], after)
                if found and (best is None or found[1] > best[2]):
                    best = (inp, found[0], found[1])
            if best:
                inp, ops, _ = best
                i = linemap.Map(ops).forward(line - 1)
                if k < self.n:
                    i = self.forward(k + 1, inp, i)
                else:
                    i = self._last_pass(inp, i)
                return inp, i + 1
        return None, line

    def _last_pass(self, inp, i):
        a, b = self.snaps[self.n + 1][inp.rel], self.final[inp.rel]
        if a == b:
            return i
        la, lb = text_lines(a), text_lines(b)
        return linemap.Map(linemap.opcodes(la, lb, tmpdir=self.w.dir, runner=_diff),
                           la, lb).forward(i)


def _diff(cmd, env):
    with tempfile.TemporaryFile() as f:
        rc = run(cmd, env=env, stdout=f, stderr=subprocess.DEVNULL)
        f.seek(0)
        return rc, f.read()


def make_items(w, n, raw, extra, snaps, final, small, parse):
    """The items, in the order the report lists equal lines: the per-file
    records, the rules' findings (rule order; each rule's in file order,
    then line, whatever order spatch's --jobs workers printed them in), the
    last pass's, the unparsable code."""
    mapper = Mapper(w, n, snaps, final, small)
    found = []

    def add(fname, ln, kind, detail, rule):
        # a left-over entry a rule already reported as a todo at the same
        # line is listed once
        if detail.startswith("left-over ") and any(
                it.file == fname and it.line == ln and it.kind == "todo" for it in found):
            return
        found.append(I.Item(fname, ln, kind, I.hook_of(detail, w.hooks), detail, rule))

    resolved = []
    for k, rule, kind, path, line, detail in raw:
        try:
            num = int(line)
        except ValueError:
            num = 0
        inp, ln = mapper.resolve(k, path, num)
        resolved.append((k, inp.orig if inp else path, ln, kind, detail, rule))
    # stable: a file's findings at one line keep the order its (one) worker
    # printed them in
    resolved.sort(key=lambda r: (r[0], os.fsencode(r[1]), r[2]))
    # a rule reports a finding once (emit_once) per spatch process: a header
    # that two --jobs workers both read (an input, and included by another
    # input) is reported by each; it is one finding
    seen = set()
    for r in resolved:
        if r in seen:
            continue
        seen.add(r)
        _k, fname, ln, kind, detail, rule = r
        add(fname, ln, kind, detail, rule)
    # the last pass gives lines of the result
    for inp, kind, ln, detail in extra:
        add(inp.orig, ln, kind, detail, "driver")
    for inp, line, relevant in parse:
        if relevant:
            found.append(I.Item(inp.orig, line, "todo", None,
                                "spatch cannot parse the code around this line and it "
                                "mentions the legacy LSM API: not converted, do it by hand",
                                "driver"))
    for inp, line, relevant in parse:
        found.append(I.Item(inp.orig, line, "parse", None,
                            R.PARSE_LEGACY if relevant else R.PARSE_OTHER, "driver"))
    # tree mode: what it did not read, named (never an all-clear over it)
    for path, why in w.o.skipped:
        found.append(I.Item(path, 0, "todo", None, why, "driver"))
    files = [I.Item(inp.orig, 0, "file", None,
                    "changed" if inp.final != inp.data else "unchanged", "driver")
             for inp in sorted(w.inputs, key=lambda x: os.fsencode(x.orig))]
    return files + found


def cross_check(w, items):
    """A change the items claim must be in the output at its line
    (lsmconv.claims.check); a claim without its change is a defect of the
    run: exit 3, each named, nothing written."""
    bad = claims.check(items, {inp.orig: (inp.data, inp.final) for inp in w.inputs})
    if bad:
        for it, why in bad[:20]:
            say("%s: %s:%s: claimed \"%s\", but %s" % (PROG, it.file, it.line, it.message, why))
        raise Fail("the rules claimed %d change(s) that are not in the output (listed "
                   "above; a defect of lsmconv): nothing written" % len(bad), exits.FAILED)


# --- writing -----------------------------------------------------------------

class Install:
    """Writes the results; undo() puts everything back as it was."""

    def __init__(self, o, inputs):
        self.o = o
        self.inputs = inputs
        self.suffix = ".lsmconv-tmp.%d" % os.getpid()
        self.journal = []       # undo actions, newest last
        self.written = []       # user-visible paths written
        self.stage = None

    def run(self):
        if self.o.out:
            self._out()
        else:
            self._in_place()

    def _in_place(self):
        todo = [inp for inp in self.inputs if inp.final != inp.data]
        for inp in todo:
            if not fsio.same_version(os.path.realpath(inp.orig), inp.st):
                raise Fail("%s changed while it was being converted: nothing written, "
                           "run again" % inp.orig)
        for inp in todo:
            real = os.path.realpath(inp.orig)
            if not fsio.same_version(real, inp.st):
                raise OSError(0, "changed while it was being converted", inp.orig)
            self.journal.append(("restore", real, inp.data))
            fsio.write_through(real, inp.final)
            self.written.append(inp.orig)

    def _dest(self, inp):
        return _dest(self.o, inp)

    def _out(self):
        out = self.o.out
        # as checked before the run: the report and items staged since
        # then may lie in it (an --out that was empty still gets its marker)
        state = self.o.out_state or fsio.out_state(out)
        if state == "missing":
            parent = os.path.dirname(os.path.abspath(out))
            self._makedirs(parent)
            self.stage = os.path.abspath(out) + self.suffix
            os.mkdir(self.stage)
            for inp in self.inputs:
                self._stage_file(inp)
            fsio.write_new(os.path.join(self.stage, fsio.MARKER), fsio.MARKER_TEXT.encode())
            os.rename(self.stage, out)
            self.journal.append(("rmtree", out))
            self.stage = None
            self.written.append(out + "/")
            return
        self.stage = os.path.join(out, self.suffix)
        os.mkdir(self.stage)
        for inp in self.inputs:
            self._stage_file(inp)
        os.mkdir(os.path.join(self.stage, ".old"))
        for inp in self.inputs:
            rel = self._dest(inp)
            dst = os.path.join(out, rel)
            self._makedirs(os.path.dirname(dst))
            if os.path.lexists(dst):
                if os.path.isdir(dst) and not os.path.islink(dst):
                    raise OSError(0, "a directory is in the way", dst)
                old = os.path.join(self.stage, ".old", "%d" % len(self.journal))
                os.rename(dst, old)
                self.journal.append(("rename", old, dst))
            else:
                self.journal.append(("unlink", dst))
            os.rename(os.path.join(self.stage, rel), dst)
            self.written.append(dst)
        if state == "empty":
            marker = os.path.join(out, fsio.MARKER)
            fsio.write_new(marker, fsio.MARKER_TEXT.encode())
            self.journal.append(("unlink", marker))

    def _stage_file(self, inp):
        p = os.path.join(self.stage, self._dest(inp))
        os.makedirs(os.path.dirname(p), exist_ok=True)
        fsio.write_new(p, inp.final, inp.st.st_mode & 0o777)

    def _makedirs(self, d):
        d = os.path.abspath(d)
        missing = []
        while not os.path.isdir(d):
            missing.append(d)
            d = os.path.dirname(d)
        for m in reversed(missing):
            os.mkdir(m)
            self.journal.append(("rmdir", m))

    def undo(self):
        """Undo the journal; returns the paths it could not restore."""
        failed = []
        for act in reversed(self.journal):
            try:
                if act[0] == "restore":
                    fsio.write_through(act[1], act[2])
                elif act[0] == "rename":
                    os.replace(act[1], act[2])
                elif act[0] == "unlink":
                    os.unlink(act[1])
                elif act[0] == "rmdir":
                    os.rmdir(act[1])
                elif act[0] == "rmtree":
                    fsio.remove_tree(act[1], ROOT)
            except OSError:
                failed.append(act[-1] if act[0] != "restore" else act[1])
        self.journal = []
        return failed

    def cleanup(self):
        if self.stage and os.path.isdir(self.stage):
            fsio.remove_tree(self.stage, ROOT)
        self.stage = None


def _oserr(e):
    return "%s%s" % (e.strerror or e, ": %s" % e.filename if e.filename else "")


# --- main --------------------------------------------------------------------

def convert(o):
    o.rule_files = rule_files(o)
    claims.raise_stack()
    check_target(o.target)
    check_outputs(o)
    inputs = collect(o)
    check_clashes(o, inputs)
    if not inputs:
        say("%s: no file mentions security_operations/security_ops" % PROG)
    if not shutil.which("spatch"):
        raise Fail("spatch is not installed (make deps)")
    if not shutil.which("diff"):
        raise Fail("diff is not installed (diffutils)")
    w = None
    inst = None
    outputs = []
    try:
        w = Work(o, inputs)
        prof = Profile()
        with prof.step("parse check"):
            parse = check_parse(w)
        n, raw, snaps, small = run_rules(w, prof)
        final, extra = {}, []
        rule_ids = [os.path.basename(r).split("-", 1)[0] for r, _ in o.rule_files]
        for inp in inputs:
            data = snaps[n + 1][inp.rel]
            if b"\0" in data:
                final[inp.rel] = data
                continue
            text, found = fix_leftovers(data.decode("utf-8", "surrogateescape"), w.hooks)
            # legacy API in macro bodies, which spatch does not see: todos
            found += [("todo", ln, d) for ln, d in claims.hidden(text, rule_ids)]
            final[inp.rel] = text.encode("utf-8", "surrogateescape")
            extra += [(inp, kind, ln, d) for kind, ln, d in found]
        for inp in inputs:
            inp.final = inp.from_work(final[inp.rel])
        items = make_items(w, n, raw, extra, snaps, final, small, parse)
        items += claims.left_items(
            {inp.orig: final[inp.rel].decode("utf-8", "surrogateescape") for inp in inputs
             if b"\0" not in final[inp.rel]}, rule_ids, items, o.target)
        cross_check(w, items)
        ntodo = sum(1 for i in items if i.kind == "todo")
        text = R.render(items, o.mode, o.target).encode("utf-8", "surrogateescape")
        if parse:
            say("%s: %d file(s) spatch could not parse completely (see the report)"
                % (PROG, len(parse)))
        for path, data in ((o.report, text), (o.items, I.dumps(items).encode()),
                           (o.profile, prof.tsv())):
            if path:
                outputs.append(fsio.Output(path, ".lsmconv-tmp.%d" % os.getpid()))
                try:
                    outputs[-1].stage(data)
                except OSError as e:
                    raise Fail("cannot write %s: %s; nothing written" % (path, _oserr(e)))
        inst = Install(o, inputs)
        try:
            inst.run()
        except OSError as e:
            failed = inst.undo()
            raise Fail("writing the results failed: %s; %s" % (
                _oserr(e), "restored what was written" if not failed else
                "could not restore: " + ", ".join(failed)), exits.FAILED)
        # past the point of no return: a signal now is noted, not obeyed
        exits.Signals.deferred = True
        inst.journal = []
        try:
            for out in outputs:
                out.commit()
            if not o.report:
                sys.stdout.buffer.write(text)
                sys.stdout.flush()
        except OSError as e:
            if not o.report:
                # nothing more can reach stdout (no "Exception ignored" at exit)
                os.dup2(os.open(os.devnull, os.O_WRONLY), 1)   # work: /dev/null
            raise Fail("cannot write the report: %s (the results are written: %s)"
                       % (_oserr(e), ", ".join(inst.written) or "no file changed"),
                       exits.FAILED)
    except Interrupted:
        exits.Signals.deferred = True
        _stop_children()
        failed = inst.undo() if inst else []
        raise Fail("interrupted%s" % (
            "" if not failed else "; could not restore: " + ", ".join(failed)),
            exits.interrupted(exits.Signals.signum or signal.SIGINT))
    finally:
        exits.Signals.deferred = True
        _stop_children()
        if inst:
            inst.cleanup()
        for out in outputs:
            out.discard()
        if w and os.environ.get("LSMCONV_KEEP_WORK"):
            say("%s: work directory kept (LSMCONV_KEEP_WORK): %s" % (PROG, w.dir))
        elif w:
            fsio.remove_tree(w.dir, ROOT)
    if ntodo:
        say("%s: %d item(s) left for a human (see the report)" % (PROG, ntodo))
        if not o.allow_partial:
            return exits.TODO
    return exits.DONE


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    exits.catch_signals()
    try:
        o = parse_args(argv)
        if o is None:
            sys.stdout.write(USAGE)
            sys.stdout.flush()
            return exits.DONE
        return convert(o)
    except Fail as e:
        if exits.describe(e):
            say("%s: %s" % (PROG, exits.describe(e)))
        return e.code
    except Interrupted as e:
        _stop_children()
        say("%s: %s" % (PROG, exits.describe(e)))
        return exits.interrupted(e.signum)
    except OSError as e:
        say("%s: %s" % (PROG, _oserr(e)))
        return exits.FAILED


if __name__ == "__main__":
    sys.exit(main())

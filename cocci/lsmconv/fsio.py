# SPDX-License-Identifier: GPL-2.0
"""File-system operations that never lose a user's file.

    read_file(path)             bytes and the stat it was read with
    read_text(path)             a text file's text (bytes that are not
                                UTF-8 kept as surrogates), None when it
                                cannot be read
    crlf(data)                  every line ends in CRLF (converted as LF,
                                written back as CRLF)
    write_through(path, data)   rewrite a file in place through its inode
                                (owner, mode, hard links stay; a symlink is
                                followed to its target)
    write_new(path, data, mode) create a file that must not exist yet
    Output(path)                a report-like output: a regular file is
                                written to a temporary sibling and renamed,
                                a device or pipe (/dev/stdout, /dev/full) is
                                written directly
    out_state(dir)              "missing", "empty", "ours" (has MARKER) or
                                "foreign"
    remove_tree(path, ...)      rm -rf of a directory lsmconv made, refused
                                for /, $HOME, the repository and its parents
    spatch_safe(path)           True when spatch can be given the path
                                (spatch runs shell commands with unquoted
                                file names)
    within(path, top)           `path` is the directory `top` or below it

The output-safety layer, used by every command before it does any work
(lsmconv.driver, lsmconv.port; scripts/series.sh through the CLI below):

    check_paths(inputs, outputs)  every output resolved (symlinks followed;
                                hard links: the same st_dev/st_ino) against
                                every input and every other output: raises
                                Clash naming both when an output is an
                                input, when an input lies inside an output
                                directory, or when two outputs are one file
                                (two streams such as /dev/null may be one);
                                inputs and outputs are (what, path) pairs
    input_problem(path)         why `path` is no input: not a regular file
                                (FIFO, device, socket, directory), a
                                dangling or looping symlink; None for a
                                regular file.  Found with lstat/stat, the
                                file is never opened
    read_file(path)             refuses (OSError) anything but a regular
                                file: opened with O_NONBLOCK and checked
                                with fstat before a byte is read
    lock_dir(dir, what, beside) one run per output directory: an exclusive
                                flock on .NAME.lsmconv-lock next to it (as
                                lock_dir of scripts/lib.sh, the same file),
                                or on the existing directory itself; a
                                second run refuses at once (Clash)
    spatch_home(base)           a HOME spatch can use ($HOME when it is a
                                writable directory, else a new directory
                                under base)

CLI (exit 0: no clash, 2: a clash or a bad argument, named on stderr;
nothing is written):

    python3 -m lsmconv.fsio check-paths --input P... --output P...

An --input is a file or directory the command reads; an --output a file or
directory it writes or replaces as a whole.  Each option takes one or more
paths; an output may be missing.
"""
import errno
import fcntl
import os
import re
import shutil
import stat
import sys

from . import exits

# A directory holding this file was written by lsmconv (convert.sh --out).
MARKER = ".lsmconv-out"
MARKER_TEXT = "This directory was written by lsmconv (convert.sh --out).\n"

_SAFE = re.compile(r"^[A-Za-z0-9_./+-]*$")


def spatch_safe(path):
    return bool(_SAFE.match(path))


# spatch's temporary files add about 60 bytes to a work copy's name
# (cocci_small_output-PID-HEX-NAME); NAME_MAX is 255
SAFE_NAME_MAX = 100


def safe_name(name):
    """A file-name component spatch can be given: every other character
    becomes '_' (the extension stays), a long name is cut to SAFE_NAME_MAX
    bytes (its extension kept)."""
    out = re.sub(r"[^A-Za-z0-9_.+-]", "_", name)
    if len(out) > SAFE_NAME_MAX:
        stem, ext = os.path.splitext(out)
        ext = ext[:20]
        out = stem[:SAFE_NAME_MAX - len(ext)] + ext
    return out if out not in ("", ".", "..") else "_" + out


def read_file(path):
    """(bytes, os.stat_result) of the regular file `path` points to; OSError
    for anything else (a FIFO never blocks, /dev/zero is never read)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file (%s)" % _kind(st.st_mode), path)
        os.set_blocking(f.fileno(), True)
        return f.read(), st


def _kind(mode):
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def input_problem(path):
    """Why `path` cannot be an input (None: a regular file).  lstat and
    stat only: a FIFO or a device is never opened."""
    try:
        lst = os.lstat(path)
    except OSError as e:
        return "cannot read it (%s)" % (e.strerror or e)
    try:
        st = os.stat(path)
    except OSError as e:
        if stat.S_ISLNK(lst.st_mode):
            if e.errno == errno.ELOOP:
                return "a symlink loop"
            if e.errno == errno.ENOENT:
                return "a dangling symlink (to %s)" % _readlink(path)
        return "cannot read it (%s)" % (e.strerror or e)
    if stat.S_ISREG(st.st_mode):
        return None
    what = _kind(st.st_mode)
    if stat.S_ISLNK(lst.st_mode):
        return "a symlink to %s (%s)" % (_readlink(path), what)
    return what


def _readlink(path):
    try:
        return os.readlink(path)
    except OSError:
        return "?"


def read_text(path):
    """The text of `path` (undecodable bytes kept, surrogateescape), or
    None when it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read()
    except OSError:
        return None


def crlf(data):
    """Does every line of the text `data` (bytes) end in CRLF?  Such a file
    is converted with LF line ends and written back with CRLF; any other
    CR stays as it is.  Binary data (a NUL byte) never is."""
    return b"\0" not in data and data.count(b"\n") > 0 and \
        data.count(b"\r\n") == data.count(b"\n")


def same_version(path, st):
    """Is the file at `path` still the one read with stat `st`?"""
    try:
        now = os.stat(path)
    except OSError:
        return False
    return (now.st_dev, now.st_ino, now.st_size, now.st_mtime_ns) == \
        (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def write_through(path, data):
    """Replace the content of an existing file, keeping its inode; read it
    back.  Raises OSError (also when the read-back differs)."""
    real = os.path.realpath(path)
    with open(real, "r+b") as f:
        f.write(data)
        f.truncate()
        f.flush()
        os.fsync(f.fileno())
        f.seek(0)
        back = f.read()
    if back != data:
        raise OSError(0, "the file does not hold what was written", real)
    return real


def write_new(path, data, mode=0o644):
    """Create `path` (which must not exist) with `data`; read it back."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode & 0o777)
    try:
        with os.fdopen(fd, "wb") as f:
            fd = None
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    finally:
        if fd is not None:
            os.close(fd)
    with open(path, "rb") as f:
        if f.read() != data:
            raise OSError(0, "the file does not hold what was written", path)


def is_stream(path):
    """True for an existing output that is not a regular file (a device, a
    pipe, /dev/stdout): written directly, never replaced."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode)


def check_output(path, what):
    """Why `path` cannot take an output file (None when it can)."""
    if os.path.isdir(path):
        return "%s %s is a directory" % (what, path)
    if is_stream(path):
        return None if os.access(path, os.W_OK) else "%s %s: not writable" % (what, path)
    d = os.path.dirname(path) or "."
    if not os.path.isdir(d):
        return "no directory for %s: %s" % (what, d)
    if not os.access(d, os.W_OK | os.X_OK):
        if os.path.isfile(path) and os.access(path, os.W_OK):
            return None
        return "%s %s: directory %s not writable" % (what, path, d)
    return None


class Output:
    """An output file written at the end: stage() writes a regular file's
    content to a temporary sibling (nothing visible yet), commit() renames
    it into place; a stream is written by commit() directly."""

    def __init__(self, path, tmp_suffix):
        self.path = path
        self.stream = is_stream(path)
        self.tmp = None
        self.tmp_suffix = tmp_suffix
        self.data = None

    def stage(self, data):
        self.data = data
        if self.stream:
            return
        d = os.path.dirname(self.path) or "."
        if os.access(d, os.W_OK | os.X_OK):
            self.tmp = self.path + self.tmp_suffix
            base = os.path.basename(self.tmp)
            if len(os.fsencode(base)) > 255:
                # NAME_MAX: a long name's sibling is cut (still unique by PID)
                self.tmp = os.path.join(d, os.fsdecode(os.fsencode(base)[:120]) +
                                        self.tmp_suffix)
            write_new(self.tmp, data, 0o666 & ~_umask())

    def commit(self):
        if self.tmp:
            os.replace(self.tmp, self.path)
            self.tmp = None
        elif self.stream:
            with open(self.path, "wb") as f:
                f.write(self.data)
        else:
            # directory not writable, file is: write through it
            if os.path.exists(self.path):
                write_through(self.path, self.data)
            else:
                write_new(self.path, self.data, 0o666 & ~_umask())

    def discard(self):
        if self.tmp:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = None


def _umask():
    m = os.umask(0)
    os.umask(m)
    return m


def out_state(path):
    if not os.path.lexists(path):
        return "missing"
    if not os.path.isdir(path):
        return "not-a-directory"
    names = os.listdir(path)
    if not names:
        return "empty"
    if MARKER in names:
        return "ours"
    return "foreign"


def protected(path, repo):
    """Paths lsmconv never removes: /, $HOME, the repository, a parent of
    the repository."""
    real = os.path.realpath(path)
    if real == "/":
        return True
    home = os.environ.get("HOME")
    if home and real == os.path.realpath(home):
        return True
    repo = os.path.realpath(repo)
    return repo == real or repo.startswith(real.rstrip("/") + "/")


def remove_tree(path, repo):
    """rm -rf of a directory lsmconv created; refuses protected paths."""
    if protected(path, repo):
        raise OSError(0, "refusing to remove a protected directory", path)
    shutil.rmtree(path, ignore_errors=True)


# --- the output-safety layer ---------------------------------------------------

class Clash(Exception):
    """An output that would destroy an input or another output (exit 2,
    nothing written)."""


def _resolve(path):
    """(realpath, (st_dev, st_ino) or None, is a stream) of `path`."""
    real = os.path.realpath(path)
    try:
        st = os.stat(path)
    except OSError:
        return real, None, False
    stream = not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode)
    return real, (st.st_dev, st.st_ino), stream


def within(path, top):
    """Is `path` the directory `top` or below it (both resolved)?"""
    return path == top or path.startswith(top.rstrip("/") + "/")


def check_paths(inputs, outputs):
    """Raise Clash (message naming both paths) when an output is an input
    (the same resolved path or the same inode), an input lies inside an
    output directory, or two outputs are one file.  inputs, outputs:
    iterables of (what, path).  Two outputs that are one stream
    (/dev/null, a terminal) are allowed; nothing is opened."""
    ins = [(w, p) + _resolve(p) for w, p in inputs if p]
    outs = [(w, p) + _resolve(p) for w, p in outputs if p]
    for ow, op, oreal, oid, ostream in outs:
        for iw, ip, ireal, iid, _ in ins:
            if oreal == ireal or (oid is not None and oid == iid):
                raise Clash("%s %s is the input %s%s: refusing to overwrite it; nothing "
                            "written" % (ow, op, iw + " " if iw else "", ip))
            if within(ireal, oreal) and os.path.isdir(oreal):
                raise Clash("%s %s holds the input %s%s (%s), which writing it could replace: "
                            "nothing written" % (ow, op, iw + " " if iw else "", ip, ireal))
    for n, (aw, ap, areal, aid, astream) in enumerate(outs):
        for bw, bp, breal, bid, bstream in outs[n + 1:]:
            if astream and bstream:
                continue
            if areal == breal or (aid is not None and aid == bid):
                raise Clash("%s %s and %s %s are the same file: each output needs its own; "
                            "nothing written" % (aw, ap, bw, bp))


def lock_dir(path, what="--out", beside=True):
    """Hold an exclusive lock for the output directory `path` for the rest
    of the process: flock on .NAME.lsmconv-lock next to it (the file
    scripts/lib.sh's lock_dir uses; missing parent directories are made),
    or with beside=False on the existing directory itself (nothing is
    written).  Returns the open file descriptor; raises Clash when another
    run holds the lock."""
    real = os.path.realpath(path)
    lockf = os.path.join(os.path.dirname(real), ".%s.lsmconv-lock" % os.path.basename(real))
    try:
        if beside:
            os.makedirs(os.path.dirname(real), exist_ok=True)
            fd = os.open(lockf, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o666 & ~_umask())
        else:
            lockf = real
            fd = os.open(real, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as e:
        raise Clash("%s %s: cannot open the lock file %s: %s"
                    % (what, path, lockf, e.strerror or e))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise Clash("%s %s is in use by another lsmconv run (lock on %s held); wait for it "
                    "to finish or choose another directory" % (what, path, lockf))
    return fd


def spatch_home(base):
    """A HOME spatch can use: $HOME when it is a writable directory, else a
    new directory `base`/home (spatch fails with "Not_found" without a
    HOME)."""
    home = os.environ.get("HOME")
    if home and os.path.isdir(home) and os.access(home, os.W_OK | os.X_OK):
        return home
    h = os.path.join(base, "home")
    os.makedirs(h, exist_ok=True)
    return h


USAGE = """usage: python3 -m lsmconv.fsio check-paths --input P... --output P...
Exit 0 when no output clashes with an input or another output, 2 when one
does (named on stderr) or on a bad argument.  Nothing is written.
"""


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["-h"], ["--help"]):
        sys.stdout.write(USAGE)
        return exits.DONE
    if argv[:1] != ["check-paths"]:
        sys.stderr.write(USAGE)
        return exits.USAGE
    inputs, outputs, cur = [], [], None
    for a in argv[1:]:
        if a in ("-h", "--help"):
            sys.stdout.write(USAGE)
            return exits.DONE
        if a == "--input":
            cur = inputs
        elif a == "--output":
            cur = outputs
        elif cur is None or a == "":
            sys.stderr.write("lsmconv.fsio: %s\n%s" % (
                "an empty path" if a == "" else "a path before --input/--output: " + a, USAGE))
            return exits.USAGE
        else:
            cur.append(("" if cur is inputs else "output", a))
    try:
        check_paths(inputs, outputs)
    except Clash as e:
        sys.stderr.write("lsmconv.fsio check-paths: %s\n" % e)
        return exits.USAGE
    return exits.DONE


if __name__ == "__main__":
    sys.exit(main())

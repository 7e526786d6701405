# SPDX-License-Identifier: GPL-2.0
"""File-system operations that never lose a user's file.

    read_file(path)             bytes and the stat it was read with
    read_text(path)             a text file's text (bytes that are not
                                UTF-8 kept as surrogates), None when it
                                cannot be read
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
"""
import os
import re
import shutil
import stat

# A directory holding this file was written by lsmconv (convert.sh --out).
MARKER = ".lsmconv-out"
MARKER_TEXT = "This directory was written by lsmconv (convert.sh --out).\n"

_SAFE = re.compile(r"^[A-Za-z0-9_./+-]*$")


def spatch_safe(path):
    return bool(_SAFE.match(path))


def safe_name(name):
    """A file-name component spatch can be given: every other character
    becomes '_' (the extension stays)."""
    out = re.sub(r"[^A-Za-z0-9_.+-]", "_", name)
    return out if out not in ("", ".", "..") else "_" + out


def read_file(path):
    """(bytes, os.stat_result) of the file `path` points to."""
    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        return f.read(), st


def read_text(path):
    """The text of `path` (undecodable bytes kept, surrogateescape), or
    None when it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read()
    except OSError:
        return None


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

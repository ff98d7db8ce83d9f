"""Reading a file whatever the path turns out to be: only a regular file is read, and anything else is named.

A path may be a named pipe (reading it waits for a writer that may never come), a device, a socket,
a symbolic link that loops or leads nowhere: :func:`read_regular` opens without waiting and reads
only a regular file; :func:`not_a_file` says, for people, what a path that is not one is.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

_KINDS = {stat.S_IFIFO: "a named pipe (FIFO)", stat.S_IFSOCK: "a socket", stat.S_IFCHR: "a character device",
          stat.S_IFBLK: "a block device", stat.S_IFDIR: "a folder"}


class NotARegularFile(OSError):
    """The path opened is something other than a regular file (``strerror`` says what)."""


def read_regular(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit + 1`` of them when ``limit`` is given (so that a
    caller sees a file is over its limit without reading it all); :class:`OSError` if it cannot be read."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise NotARegularFile(errno.EINVAL, f"{_KINDS.get(stat.S_IFMT(mode), 'not a regular file')}, not a file to read")
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            return handle.read() if limit is None else handle.read(limit + 1)
    finally:
        os.close(descriptor)


def not_a_file(path: str | Path) -> str:
    """Why ``path`` is not a regular file or a folder, for people; ``""`` when it is one."""
    path = Path(path)
    try:
        mode = path.stat().st_mode
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "a symbolic link that leads back to itself"
        if path.is_symlink():
            return f"a symbolic link to {os.readlink(path)}, which does not exist"
        if error.errno == errno.ENOENT:
            return "no such file or folder"
        return error.strerror or "cannot be read"
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return ""
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")

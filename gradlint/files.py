"""Reading what the user points gradlint at, and what it finds beside it, without being led astray
by what is not a regular file.

``read`` reads a file to lint: once (a pipe such as ``<(cat f)`` or ``/dev/stdin`` has no second
reading, so the bytes read are the bytes hashed, cached and linted), and never more than
``MAX_BYTES`` and one byte of it, so ``/dev/zero`` or a runaway pipe ends in ``TooLarge`` rather
than in a MemoryError. A regular file is judged by its size before a byte is read.

``read_regular`` reads a file gradlint only consults (a cache's tag and packs, a ``.gitignore``):
opened without waiting, so a FIFO put in its place cannot hang the run, and read only if it is a
regular file.
"""
from __future__ import annotations

import errno
import os
import stat
from typing import BinaryIO, NamedTuple

# The most bytes of one file gradlint reads: past this a file is reported, not linted. The size
# limits of the engine (GL010, gradlint/engine.py) are in lines and tokens, far below this.
MAX_BYTES = 10 * 2**20


class Read(NamedTuple):
    source: bytes
    regular: bool  # a regular file: its path reads the same bytes again, so the cache may key on it


class TooLarge(OSError):
    """More than ``MAX_BYTES`` (an OSError, as the library promises for what cannot be read).
    ``what`` says how much: "larger than", "a character device that gave more than"."""

    def __init__(self, what: str):
        super().__init__(errno.EFBIG, f"{what} {limit()}, the most gradlint reads of one file")


def read(path: str | os.PathLike) -> Read:
    """The bytes of the file at ``path``, read once; ``TooLarge`` past ``MAX_BYTES``, another
    OSError if it cannot be read (a directory, a socket, no permission, a pipe gradlint itself
    writes: ``/dev/stdout``)."""
    # os.open and os.read rather than open(): a warm run reads every file of the project, and a
    # buffered read of MAX_BYTES + 1 sets up (and gives back) a 10 MiB buffer for each one.
    handle = os.open(path, os.O_RDONLY)
    try:
        info = os.fstat(handle)
        mode = info.st_mode
        if stat.S_ISREG(mode):
            if info.st_size > MAX_BYTES:
                raise TooLarge("larger than")
            source = _read_sized(handle, info.st_size)
        else:
            if stat.S_ISDIR(mode):  # what open() says of a folder
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
            if stat.S_ISFIFO(mode) and _own_output(info):  # `gradlint check /dev/stdout | less`
                raise OSError(errno.EDEADLK, "it is gradlint's own output, which cannot end while "
                                             "gradlint waits to read it")
            with os.fdopen(handle, "rb", closefd=False) as stream:
                source = stream.read(MAX_BYTES + 1)
    finally:
        os.close(handle)
    regular = stat.S_ISREG(mode)
    if len(source) > MAX_BYTES:  # a file that grew, or a pipe or device that gave too much
        raise TooLarge("larger than" if regular else f"{_kind(mode)} that gave more than")
    return Read(source, regular)


def _read_sized(handle: int, size: int, limit: int | None = MAX_BYTES + 1) -> bytes:
    """A regular file's bytes to its end, at most ``limit`` of them (None: no limit), ``size``
    the length fstat gave: read in one call, then on in case it grew since."""
    want = size + 1 if limit is None else min(size + 1, limit)
    first = os.read(handle, want)
    # Less than asked for is the end: a regular file's read is cut short only there (it is not
    # interrupted by signals), so the usual file takes one read, not a second to see the end.
    if len(first) < want or (limit is not None and len(first) >= limit):
        return first
    parts, total = [first], len(first)
    while limit is None or total < limit:  # it grew since fstat: on to its end
        part = os.read(handle, 2**16 if limit is None else min(2**16, limit - total))
        if not part:
            break
        parts.append(part)
        total += len(part)
    return b"".join(parts)


def read_stream(stream: BinaryIO) -> bytes:
    """At most ``MAX_BYTES`` of an open stream (standard input); ``TooLarge`` past them."""
    source = stream.read(MAX_BYTES + 1)
    if len(source) > MAX_BYTES:
        raise TooLarge("more than")
    return source


def read_regular(path: str | os.PathLike, limit: int | None = None) -> bytes | None:
    """The bytes of ``path`` (at most ``limit``) if it is a regular file, else None (missing, a
    FIFO, a device, a folder, unreadable). Never waits: a FIFO is opened without blocking."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            return None
        # os.read sized by fstat, as ``read``: a warm run reads every file its cached findings
        # depend on this way.
        return _read_sized(handle, info.st_size, limit)
    except OSError:
        return None
    finally:
        os.close(handle)


def limit() -> str:
    """``MAX_BYTES`` as a person reads it: ``10 MiB``."""
    if MAX_BYTES >= 2**20 and MAX_BYTES % 2**20 == 0:
        return f"{MAX_BYTES // 2**20} MiB"
    return f"{MAX_BYTES} bytes"


def _own_output(info: os.stat_result) -> bool:
    for fd in (1, 2):
        try:
            other = os.fstat(fd)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (info.st_dev, info.st_ino):
            return True
    return False


def _kind(mode: int) -> str:
    for test, kind in ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISFIFO, "a pipe"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "a special file"

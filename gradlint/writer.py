"""Writing a new text into a user's Python file: the one way ``--add-noqa`` (and a ``--fix``)
changes a file, so that a failure never leaves it damaged.

``read`` decodes a file as Python does (a BOM, a coding cookie) and only when the text encodes
back to the very same bytes; line endings are kept by keeping the text undecoded (``\\r\\n`` stays
``\\r\\n``). ``write`` takes such a ``Source`` and a new text: it encodes it as the file was
encoded, refuses a text Python no longer parses, refuses a file that changed since it was read,
and then writes it whole or not at all:

- A file with one name is replaced: the new bytes go to a temporary file beside it (the same
  folder, so the rename is atomic), flushed to disk, given the original's permission bits and
  owner, then renamed over it. A symlink's target is replaced, never the link itself.
- A file with other names (hard links), or whose owner the replacement could not keep, is
  overwritten in place, since a rename would detach it from its other names or change its owner:
  the space for the new length is reserved first (``posix_fallocate``, so a full disk or a quota
  stops the write before any byte changes), and if writing still fails the original bytes are
  written back.

Either way a failure raises ``WriteError`` with one line saying why, and the file is as it was.
"""
from __future__ import annotations

import ast
import contextlib
import errno
import io
import os
import stat
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path


class WriteError(Exception):
    """A file that was not written (or read); the message is one line, without the file's name."""


class Unreadable(WriteError):
    """The file could not be read."""


class WouldNotParse(WriteError):
    """The new text does not parse, so it was not written."""


@dataclass(frozen=True)
class Source:
    """A file's text as read, and what writing a new text back in its bytes needs."""

    path: Path  # as named (a symlink stays one: ``write`` resolves it)
    raw: bytes
    text: str
    encoding: str  # as Python reads the file: "utf-8-sig" when it has a BOM


def read(path: str | Path) -> Source:
    """The file's text, decoded as Python decodes it. Raises ``WriteError`` when it cannot be read
    or would not be written back byte for byte (an undecodable byte, an unknown coding cookie)."""
    path = Path(path)
    try:
        # Without waiting: opening a FIFO to read would wait for a writer.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as err:
        raise Unreadable(f"cannot read: {_reason(err)}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise WriteError("not a regular file, so it is not rewritten")
        raw = _read_all(fd)
    except OSError as err:
        raise Unreadable(f"cannot read: {_reason(err)}") from None
    finally:
        os.close(fd)
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
        text = raw.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError) as err:
        raise WriteError(f"its encoding cannot be read back ({err}), so it is not rewritten") from None
    if text.encode(encoding) != raw:
        raise WriteError(f"its {encoding} text would not be written back byte for byte, so it is not rewritten")
    return Source(path, raw, text, encoding)


def identity(path: str | Path) -> tuple[int, int] | None:
    """(device, inode) of the file ``path`` names, following symlinks: two names of one file
    have the same. None if it cannot be looked at."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def write(source: Source, text: str) -> bytes:
    """Write ``text`` into ``source``'s file, encoded as it was read; the bytes written.

    Raises ``WouldNotParse`` for a text Python does not parse, ``WriteError`` when the file changed
    since ``source`` was read or cannot be written; the file is then as it was.
    """
    try:
        data = text.encode(source.encoding)
    except UnicodeEncodeError as err:
        raise WriteError(f"the new text cannot be written in {source.encoding} ({err})") from None
    try:
        ast.parse(data)  # as Python reads the bytes: BOM and coding cookie included
    except (SyntaxError, ValueError) as err:
        raise WouldNotParse(f"the new text would no longer parse ({err})") from None
    real = os.path.realpath(source.path)
    try:
        fd = os.open(real, os.O_RDWR | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as err:
        raise WriteError(f"cannot write: {_reason(err)}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or _read_all(fd) != source.raw:
            raise WriteError("changed since it was read; not written")
        if st.st_nlink > 1 or not _replace(real, st, data):
            _overwrite(fd, source.raw, data)
    except OSError as err:
        raise WriteError(f"cannot write: {_reason(err)}; left as it was") from None
    finally:
        os.close(fd)
    return data


def _replace(real: str, st: os.stat_result, data: bytes) -> bool:
    """Replace the file at ``real`` by one holding ``data`` with ``st``'s mode and owner; False
    (nothing changed) when no file beside it can be made with that owner."""
    folder, name = os.path.split(real)
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".gradlint")
    except PermissionError:  # a folder we may not add to, a file we may write: in place
        return False
    replaced = False
    try:
        try:
            if not _same_owner(fd, st):
                return False
            if hasattr(os, "fchmod"):
                os.fchmod(fd, stat.S_IMODE(st.st_mode))
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if not hasattr(os, "fchmod"):
            os.chmod(temporary, stat.S_IMODE(st.st_mode))
        os.replace(temporary, real)
        replaced = True
    finally:
        if not replaced:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
    _sync_folder(folder)
    return True


def _same_owner(fd: int, st: os.stat_result) -> bool:
    """Give the open file ``st``'s owner and group if it has not got them; whether it has now."""
    made = os.fstat(fd)
    if not hasattr(os, "fchown") or (made.st_uid, made.st_gid) == (st.st_uid, st.st_gid):
        return True
    with contextlib.suppress(OSError):
        os.fchown(fd, st.st_uid, st.st_gid)  # before fchmod, which keeps set-id bits then
    made = os.fstat(fd)
    return (made.st_uid, made.st_gid) == (st.st_uid, st.st_gid)


def _overwrite(fd: int, old: bytes, data: bytes) -> None:
    """Write ``data`` over the open file that holds ``old``, keeping its inode (its other names);
    on failure, ``old`` again."""
    if len(data) > len(old) and hasattr(os, "posix_fallocate"):
        try:
            os.posix_fallocate(fd, 0, len(data))
        except OSError as err:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, len(old))  # glibc's fallback may have grown it part-way
            if err.errno not in (errno.EOPNOTSUPP, errno.EINVAL):
                raise
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        _write_all(fd, data)
        os.ftruncate(fd, len(data))
        os.fsync(fd)
    except OSError as err:
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            _write_all(fd, old)
            os.ftruncate(fd, len(old))
            os.fsync(fd)
        except OSError:
            raise WriteError(f"cannot write: {_reason(err)}, and its original bytes could not be "
                             "written back: restore it from version control") from None
        raise


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _sync_folder(folder: str) -> None:
    """Make the rename durable (best effort: not every system can open a folder)."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _reason(err: OSError) -> str:
    return err.strerror or str(err)

"""Ending every process a checked program started, wherever it went.

A process group is not enough: a daemon leaves it (``setsid``, ``setpgid``, a double fork), and
its parent's death hands it to init, out of reach. On Linux the process that launches the
program becomes a *child subreaper* (``PR_SET_CHILD_SUBREAPER``): orphans below it are re-parented
to it instead of init, so every process the program started stays below it, found by following
parent pids in ``/proc``, and is killed and reaped when the run ends. Elsewhere these functions
do nothing, and the process groups the launcher kills are all there is.
"""
from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Collection

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_PR_GET_CHILD_SUBREAPER = 37
WAIT = 5.0  # seconds to go on killing what keeps forking or has not died yet


def _prctl(option: int, arg) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(option, arg, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def subreaper(on: bool) -> bool | None:
    """Make orphans below this process its children (on) or init's again (off). Returns the
    setting it had, or None where there is no such setting."""
    import ctypes

    had = ctypes.c_int(0)
    if not _prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(had)):
        return None
    _prctl(_PR_SET_CHILD_SUBREAPER, int(on))
    return bool(had.value)


def die_with_parent() -> None:
    """SIGKILL this process when the process that forked it dies (Linux)."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _processes() -> dict[int, tuple[int, bool]] | None:
    """pid -> (parent pid, whether a zombie) for every process; None without ``/proc``."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    table = {}
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:  # ended meanwhile
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ")"
        fields = stat.rpartition(b")")[2].split()
        if len(fields) >= 2:
            table[int(name)] = (int(fields[1]), fields[0] in (b"Z", b"X"))
    return table


def children() -> set[int]:
    """The pids of this process's children, or an empty set without ``/proc``."""
    me = os.getpid()
    return {pid for pid, (parent, _) in (_processes() or {}).items() if parent == me}


def end_below(root: int, spare: Collection[int] = (), wait: float = WAIT) -> None:
    """SIGKILL every process below ``root`` (this process or one below it), except those below
    (and including) the ``spare`` pids, until none is left or ``wait`` seconds have passed; reap
    those that are or become this process's children."""
    me = os.getpid()
    deadline = time.monotonic() + wait
    while True:
        table = _processes()
        if table is None:
            return
        below: dict[int, list[int]] = {}
        for pid, (parent, _) in table.items():
            below.setdefault(parent, []).append(pid)
        found, todo = [], list(below.get(root, ()))
        while todo:
            pid = todo.pop()
            if pid in spare or pid == me:
                continue
            found.append(pid)
            todo.extend(below.get(pid, ()))
        live = [pid for pid in found if not table[pid][1]]
        for pid in live:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        for pid in found:
            if table[pid][0] == me:
                try:
                    os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    pass
        if not live or time.monotonic() > deadline:
            return
        time.sleep(0.01)

"""Lint many files in a pool of worker processes (``gradlint check -j N``).

Each worker imports the engine once and then lints chunks of files sent to it by path (it reads
them itself); it sends back, per file, only the findings, the hash of the bytes it read (the
caller keeps the cache) and, for files with findings, the texts they count in. The largest files go first, so that no big
file is left to run alone at the end. The caller sorts what comes back, so the output never
depends on which worker finished first.

A worker killed from outside (the kernel's out-of-memory killer, a signal) breaks the pool:
every file not yet done is reported as not checked, in one error line, and the run goes on to
report what it has. It does not hang (``concurrent.futures`` notices the dead process, where
``multiprocessing.Pool`` would wait for it forever).
"""
from __future__ import annotations

import gc
import importlib
import math
import os
import signal
import sys
from collections.abc import Iterator

from gradlint import runner

# Fewer files than this to lint are linted in the calling process. Measured on this project's
# corpus (2 CPUs): a pool of two costs ~80 ms of CPU more than one process (forks, the workers'
# first imports of the analysis, messages), and a file averages ~14 ms, so a pool pays for itself
# from about a dozen files; a pre-commit run over one commit's files stays in one process.
POOL_MIN = 16
CHUNK_MAX = 16  # files per message to a worker: fewer messages, yet a balanced end
# The engine and the modules it imports on first use.
WARM = ("gradlint.engine", "gradlint.analysis.facts", "gradlint.checks")

def default_jobs() -> int:
    """The CPUs this process may run on (its affinity mask, where the system has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        return max(1, os.cpu_count() or 1)


def start_method() -> str:
    import multiprocessing

    # fork: a worker starts with gradlint already imported, in milliseconds. macOS has it but
    # CPython deems it unsafe there (system libraries), so macOS and Windows spawn.
    return "fork" if "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin" else "spawn"


def check_all(jobs: list[runner.Job], workers: int, hashed: bool = False) -> Iterator[tuple[int, runner.Outcome]]:
    """(job index, outcome) for every job, in the order they finish, linted by ``workers``
    processes (``runner.check``)."""
    # Imported here: the command line asks this module for default_jobs() on every run.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    method = start_method()
    if method == "fork":
        # Imported once, here, and inherited by every worker: importing libcst (~0.1 s) and the
        # analysis in each worker instead would cost a short run more than the pool saves.
        for name in WARM:
            importlib.import_module(name)
        gc.freeze()  # what the workers inherit stays shared: their collections never copy it
    chunks = _chunks(sorted(jobs, key=lambda job: -(job.size or _size(job.target))), workers)
    pool = ProcessPoolExecutor(max_workers=min(workers, len(chunks)),
                               mp_context=multiprocessing.get_context(method),
                               initializer=_start, initargs=(os.getpid(),))
    lost: list[runner.Job] = []
    try:
        futures = {pool.submit(_check_chunk, [(j.index, j.target, j.codes) for j in chunk], hashed): chunk
                   for chunk in chunks}
        for future in as_completed(futures):
            try:
                yield from future.result()
            except BrokenProcessPool:
                lost += futures[future]
    except BaseException:
        # Ctrl-C (a second one would cut short a shutdown that waits), or the caller stopped:
        # the workers, who ignore SIGINT, are ended now rather than left waiting for work.
        _terminate(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        gc.unfreeze()
    if lost:
        lost.sort(key=lambda job: job.index)
        names = ", ".join(job.target.name for job in lost[:3]) + (", ..." if len(lost) > 3 else "")
        yield lost[0].index, runner.Outcome(error=(
            f"error: a worker process died (killed, perhaps for lack of memory) while checking; "
            f"{len(lost)} file{'s' if len(lost) != 1 else ''} not checked: {names}"))


def _terminate(pool) -> None:
    processes = list((getattr(pool, "_processes", None) or {}).values())  # (no public way to ask)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        try:
            process.terminate()
        except (OSError, ValueError):  # already gone
            pass


def _size(target: runner.Target) -> int:
    """The file's size in bytes (0 if unknown): without the cache nothing has read it yet."""
    if target.source is not None:
        return len(target.source)
    try:
        return os.stat(target.path).st_size
    except OSError:
        return 0


def _chunks(jobs: list[runner.Job], workers: int) -> list[list[runner.Job]]:
    size = max(1, min(CHUNK_MAX, math.ceil(len(jobs) / (workers * 8))))
    return [jobs[i:i + size] for i in range(0, len(jobs), size)]


def _start(parent: int) -> None:
    # Ctrl-C is the parent's to handle: it stops handing out chunks and reports. A worker that
    # took it too would print a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with_parent(parent)
    from gradlint import engine  # noqa: F401  (under spawn: once per worker, not per file)


def _end_with_parent(parent: int) -> None:
    """On Linux, ask the kernel to end this worker when the parent dies, however it dies (a
    worker left behind would wait for work forever and hold the parent's stdout open); and end
    now if it died before the request was made."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os._exit(1)


def _check_chunk(items: list[tuple[int, runner.Target, frozenset[str]]],
                 hashed: bool) -> list[tuple[int, runner.Outcome]]:
    return [(index, runner.check(target, codes, hashed)) for index, target, codes in items]

"""Lint many files in a pool of worker processes (``gradlint check -j N``).

Each worker imports the engine once and then lints chunks of files sent to it by path (it reads
them itself); it sends back, per file, only the findings, the hash of the bytes it read (the
caller keeps the cache) and, for files with findings, the texts they count in. The files, in
path order, are cut into one lane per worker of about equal bytes, and a worker goes through its
own lane chunk by chunk, the largest first: files near each other import the same modules of
the project, which one worker then reads, parses and summarizes, where two workers taking turns
in one folder each did it (a quarter more CPU than one process, measured). A worker whose lane
is done takes the last chunk of the fullest lane. The caller sorts what comes back, so the output
never depends on which worker finished first.

A worker that dies (the kernel's out-of-memory killer, an abort, a signal) breaks
the pool, and does not hang it (``concurrent.futures`` notices the dead process, where
``multiprocessing.Pool`` would wait for it forever). Each worker notes in shared memory which file
it is in; the files the workers were in are then checked again one by one, each in a process of
its own, and the rest in a new pool. A file whose own process dies too is one error line naming
the signal or exit status; every other file keeps its findings.
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
    processes (``runner.check``). A worker that dies costs only the file it was checking: each
    file a dead pool's workers were in is checked again alone, in a process of its own, and the
    other files in a new pool; a file whose own process dies is one error line, with the signal
    or exit status."""
    # Imported here: the command line asks this module for default_jobs() on every run.
    import multiprocessing

    method = start_method()
    if method == "fork":
        # Imported once, here, and inherited by every worker: importing the analysis in each
        # worker instead would cost a short run more than the pool saves.
        for name in WARM:
            importlib.import_module(name)
        gc.freeze()  # what the workers inherit stays shared: their collections never copy it
    context = multiprocessing.get_context(method)
    pending = list(jobs)
    try:
        while pending:
            lost: list[runner.Job] = []
            suspects: set[int] = set()
            yield from _pool(context, pending, workers, hashed, lost, suspects)
            # The files the workers were in when the pool broke; if none is known, every lost
            # file is checked alone, so each round ends at least one file's part in it.
            alone = [job for job in lost if job.index in suspects or not suspects]
            for job in alone:
                yield job.index, _check_alone(context, job, hashed)
            again = {job.index for job in alone}
            pending = [job for job in lost if job.index not in again]
    finally:
        gc.unfreeze()


def _pool(context, jobs: list[runner.Job], workers: int, hashed: bool, lost: list[runner.Job],
          suspects: set[int]) -> Iterator[tuple[int, runner.Outcome]]:
    """One pool over ``jobs``: outcomes as they finish; if a worker dies, the jobs without an
    outcome go to ``lost``, and the indices of those the workers were checking to ``suspects``."""
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    lanes = _lanes(jobs, workers)
    size = min(workers, sum(map(len, lanes)))
    # Which file each worker is in (the index of the last one it started, -1 once its chunk is
    # done): written by the worker, read here only once the pool has broken.
    current = context.Array("q", [-1] * size, lock=False)
    seats = context.Value("i", 0)
    pool = ProcessPoolExecutor(max_workers=size, mp_context=context,
                               initializer=_start, initargs=(os.getpid(), current, seats))
    finished = broken = False
    futures: dict = {}

    def submit(lane: int) -> None:
        # As many chunks are out as there are workers: the one that just finished takes the
        # next of the lane it was on (the pool hands a chunk to an idle worker).
        nonlocal broken
        chunk = _next_chunk(lanes, lane)
        if chunk is None:
            return
        try:
            futures[pool.submit(_check_chunk, [(j.index, j.target, j.codes) for j in chunk], hashed)] = (chunk, lane)
        except BrokenProcessPool:  # a worker died since the last chunk ended
            lost.extend(chunk)
            broken = True

    try:
        for lane in range(size):
            submit(lane)
        while futures:
            done, _ = wait(futures, return_when=FIRST_COMPLETED)
            for future in done:
                chunk, lane = futures.pop(future)
                try:
                    outcomes = future.result()
                except BrokenProcessPool:
                    lost += chunk
                    broken = True
                    continue
                if not broken:
                    submit(lane)
                yield from outcomes
        finished = True
    finally:
        if not finished:
            _end_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)
    if broken:
        lost += [job for lane in lanes for chunk in lane for job in chunk]
        suspects.update(index for index in current if index >= 0)


def _check_alone(context, job: runner.Job, hashed: bool) -> runner.Outcome:
    """``runner.check`` of one file in a process of its own; an error line if that process dies."""
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_alone, args=(send, os.getpid(), job.target, job.codes, hashed), daemon=True)
    process.start()
    send.close()
    try:
        outcome = receive.recv()
    except EOFError:
        outcome = None
    except BaseException:
        process.terminate()
        raise
    finally:
        receive.close()
        process.join()
    if outcome is not None:
        return outcome
    return runner.Outcome(error=f"error: {job.target.name}: not checked: the process checking it "
                                f"{_death(process.exitcode)}; the other files were checked")


def _death(status: int | None) -> str:
    """How a process ended, for a person: a signal by name, else its exit status."""
    if status is not None and status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        why = {"SIGKILL": " (perhaps for lack of memory)",
               "SIGABRT": " (an abort: perhaps for lack of memory)"}.get(name, "")
        return f"was killed by {name}{why}"
    return f"exited with status {status} before answering"


def _alone(send, parent: int, target: runner.Target, codes: frozenset[str], hashed: bool) -> None:
    _start(parent)
    send.send(runner.check(target, codes, hashed))
    send.close()


def ignore_interrupts():
    """Ignore SIGINT from now on; return the handler it had (None off the main thread, where
    Python does not let a thread set one)."""
    while True:
        try:
            return signal.signal(signal.SIGINT, signal.SIG_IGN)
        except KeyboardInterrupt:  # one that was pending ran as the handler was changed
            continue
        except ValueError:
            return None


def _end_workers(pool) -> None:
    """Ctrl-C, or the caller stopped: the workers, who ignore SIGINT, are ended now, before
    anything waits on the pool (a shutdown waits for the chunks they are in). A further Ctrl-C
    (a key held down) is ignored while they end; one that lands before that, here or in the
    ``finally`` that called this, still finds no wait on a worker ahead of it."""
    previous = ignore_interrupts()
    try:
        _terminate(pool)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


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
    if target.path is None:
        return 0
    try:
        return os.stat(target.path).st_size
    except OSError:
        return 0


def _lanes(jobs: list[runner.Job], workers: int) -> list[list[list[runner.Job]]]:
    """The files in path order cut into ``workers`` lanes of about equal bytes, each a list of
    chunks of at most ``CHUNK_MAX`` files (few enough for the lanes to end together), the
    largest first."""
    by_path = sorted(jobs, key=lambda job: _where(job.target))
    size = max(1, min(CHUNK_MAX, math.ceil(len(by_path) / (workers * 8))))
    chunks = [by_path[i:i + size] for i in range(0, len(by_path), size)]
    weights = [sum(job.size or _size(job.target) for job in chunk) or 1 for chunk in chunks]
    total, lanes, start, acc = sum(weights), [], 0, 0
    for i, weight in enumerate(weights):
        acc += weight
        if len(lanes) < workers - 1 and acc >= total * (len(lanes) + 1) / workers:
            lanes.append(chunks[start:i + 1])
            start = i + 1
    lanes.append(chunks[start:])
    # The largest chunks of a lane first: its heaviest lints run while its worker holds little
    # (the peak memory of the 7 repositories' run: 91 MB in path order, 77 MB so), and none is
    # left to run alone at the end.
    by_weight = dict(zip(map(id, chunks), weights))
    return [sorted(lane, key=lambda chunk: -by_weight[id(chunk)]) for lane in lanes if lane]


def _next_chunk(lanes: list[list[list[runner.Job]]], lane: int) -> list[runner.Job] | None:
    """The next chunk of ``lane``; once it is done, the last (smallest) chunk of the lane with
    the most files left; None when every lane is done."""
    if lane < len(lanes) and lanes[lane]:
        return lanes[lane].pop(0)
    fullest = max(lanes, key=lambda chunks: sum(map(len, chunks)), default=None)
    return fullest.pop() if fullest else None


def _where(target: runner.Target) -> tuple[str, ...]:
    return os.path.split(os.path.abspath(target.path)) if target.path else ("", target.name)


def _start(parent: int, current=None, seats=None) -> None:
    # Ctrl-C is the parent's to handle: it stops handing out chunks and reports. A worker that
    # took it too would print a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with_parent(parent)
    global _current, _seat
    if current is not None:
        with seats.get_lock():
            _current, _seat = current, seats.value
            seats.value += 1
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


# In a pool's worker: the shared array of the files the workers are in, and this worker's seat.
_current = None
_seat = 0


def _check_chunk(items: list[tuple[int, runner.Target, frozenset[str]]],
                 hashed: bool) -> list[tuple[int, runner.Outcome]]:
    done = []
    with runner.collecting_per_file() as collect:
        for index, target, codes in items:
            if _current is not None:
                _current[_seat] = index
            done.append((index, runner.check(target, codes, hashed)))
            collect()
    if _current is not None:
        _current[_seat] = -1
    return done

"""The warm worker of ``gradlint check --dynamic``: import torch once, fork a process per run.

    python -m gradlint.dynamic.server

(``launch._Server`` starts it with ``python -c``, for the reason given there.) Each forked
process runs one job as ``child.main`` would run it in a new interpreter.
"""
from __future__ import annotations

import json
import os
import signal
import sys
import traceback

from gradlint.dynamic import reap
from gradlint.dynamic.child import main


def serve() -> int:
    """``python -m gradlint.dynamic.server``: import torch once, then run each job read
    from stdin in a fresh forked process, as ``main`` would run it in a new interpreter.

    A job is one JSON line ``{"spec", "result", "stdout", "stderr", "timeout", "cwd"}``; the
    answers are JSON lines: ``{"ready": true}`` (or ``{"no_torch": reason}``) once, then per job
    ``{"pid": N}`` when its process starts and ``{"returncode": R, "timed_out": B}`` when it
    and every process it started are gone. Each process runs in a session of its own; at the
    time limit its group gets SIGTERM (the program writes what it knows), then SIGKILL. This
    process is a child subreaper (``reap``): a daemon the program starts, in a session of its
    own, is re-parented here, not to init, and is killed when the run ends. A run dies with
    this process. Forking is safe here: this process has imported torch but run no op, so no
    thread pool exists to be copied half-way.
    """
    try:
        import torch  # noqa: F401
        from gradlint.dynamic import tracer  # noqa: F401
    except Exception as err:  # ImportError, or a broken install
        _answer({"no_torch": f"{type(err).__name__}: {err}"})
        return 0
    try:  # an optimizer's first use imports it (~1 s): once here, not in every run
        import torch._dynamo  # noqa: F401
    except Exception:
        pass
    reap.subreaper(True)
    _answer({"ready": True})
    for line in sys.stdin:
        job = json.loads(line)
        me, pid = os.getpid(), os.fork()
        if pid == 0:
            _run_job(job, me)  # never returns
        _answer({"pid": pid})
        returncode, timed_out = _wait(pid, job["timeout"])
        reap.end_below(me)  # what the program started and left running, in any session
        _answer({"returncode": returncode, "timed_out": timed_out})
    return 0


KILL_GRACE = 5.0  # seconds between SIGTERM (write what you know) and SIGKILL


def _run_job(job: dict, server: int) -> None:
    code = 1
    try:
        reap.die_with_parent()  # a program that kills the server is not left running unwatched
        if os.getppid() != server:  # it died before the line above
            return
        os.setsid()
        for fd, path in ((1, job["stdout"]), (2, job["stderr"])):
            target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(target, fd)
            os.close(target)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        sys.stdin = open(0, closefd=False)
        if job.get("cwd"):
            os.chdir(job["cwd"])
        code = main([job["spec"], job["result"]])
    except BaseException:  # noqa: B902 - whatever happens, this process must not return to the loop
        traceback.print_exc()
    finally:
        os._exit(code)


def _wait(pid: int, timeout: float) -> tuple[int, bool]:
    """Wait for the job's process; at the time limit, SIGTERM its group, then SIGKILL."""
    import time

    deadline, killed_at, timed_out = time.monotonic() + timeout, None, False
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        now = time.monotonic()
        if killed_at is None and now > deadline:
            timed_out, killed_at = True, now
            _kill_group(pid, signal.SIGTERM)
        elif killed_at is not None and now > killed_at + KILL_GRACE:
            _kill_group(pid, signal.SIGKILL)
        time.sleep(0.01)
    _kill_group(pid, signal.SIGKILL)  # what the program itself started, if anything is left
    return os.waitstatus_to_exitcode(status), timed_out


def _kill_group(pid: int, sig) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _answer(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(serve())

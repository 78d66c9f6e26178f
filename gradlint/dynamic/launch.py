"""The parent side of ``--dynamic``: run drivers in child processes, attach their verdicts.

The parent never imports torch or the user's code. Each driver runs in its own child process
(forked by a warm worker, ``gradlint.dynamic.server``), in its own session, with a time
limit; whatever the child does (``sys.exit``, ``os._exit``, a crash, an endless loop, an
allocation that fails, killing the worker, a daemon that leaves its session) ends as verdicts,
nothing it started outlives the run, and the static findings are never lost: a torch that fails
to import or a worker that never starts gives each finding an ``error`` verdict saying so.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass

from gradlint import TORCH_HINT
from gradlint.dynamic import reap
from gradlint.finding import Finding, Verdict

# When two runs decide one finding differently, the more decisive verdict is kept.
_RANK = {"confirmed": 5, "dismissed": 4, "inconclusive": 3, "error": 2, "not-reached": 1}
# Out-of-memory messages: MemoryError's, torch's CPU allocator's, CUDA's.
_OOM = ("can't allocate memory", "cannot allocate memory", "out of memory")


class DynamicUnavailable(Exception):
    """The dynamic pass cannot run at all (torch is missing); the message says what to do."""


class BadDriver(DynamicUnavailable):
    """``--driver`` names no module, or nothing callable in it."""


@dataclass(frozen=True)
class Driver:
    """What executes the flagged code: each flagged file as a script, or one callable."""

    target: str | None = None  # "pkg.module:function"; None: run each flagged file as __main__


def torch_available() -> bool:
    """Whether torch can be found (not imported: the parent never imports it; the worker
    reports a torch that is found but fails to import)."""
    from importlib.util import find_spec

    return find_spec("torch") is not None


def default_memory_limit() -> int:
    """MB a child may allocate: 8 GB, or 3/4 of the machine's memory if that is less."""
    try:
        physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // (1024 * 1024)
    except (ValueError, OSError, AttributeError):
        return 8192
    return min(8192, physical * 3 // 4) if physical > 0 else 8192


def run(findings: list[Finding], driver: Driver, timeout: float = 60.0, show_graph: bool = False,
        cwd: str | None = None, memory_limit: int | None = None, unrunnable: frozenset = frozenset()) -> list[Finding]:
    """``findings`` with a verdict each. Raises ``DynamicUnavailable`` when torch is not
    installed, and ``BadDriver`` when the driver names nothing callable; a torch that fails to
    import, or a worker that does not start, is an ``error`` verdict for each finding. ``memory_limit``: MB each child may
    allocate (None: ``default_memory_limit()``, 0: no cap). ``unrunnable``: paths whose text is
    not the file on disk (standard input given a ``--stdin-filename``): never run."""
    if memory_limit is None:
        memory_limit = default_memory_limit()
    if not torch_available():
        raise DynamicUnavailable(
            f"the dynamic pass needs torch: {TORCH_HINT}")
    fids, files = probes(findings, unrunnable)

    verdicts: dict[int, dict] = {}
    if driver.target is not None:
        runs = [({"callable": driver.target}, files)]
    else:
        runs = [({"script": path}, files) for path in files]
        # A flagged module that runs nothing as a script (a helper, a loss class) is reached by
        # the scripts beside it that import it and run (`main.py` doing `from losses import …`).
        scripts = set(files)
        for path in files:
            if not _runs_anything(path):
                for importer in _importers(path):
                    if importer not in scripts:
                        scripts.add(importer)
                        runs.append(({"script": importer}, files))
    server = _Server(cwd, timeout)
    results, unavailable = [], None
    try:
        for spec_driver, spec_files in runs:
            try:
                results.append((spec_driver, spec_files, _run_child(
                    server, {"driver": spec_driver, "files": spec_files, "show_graph": show_graph,
                             "memory_limit": memory_limit}, timeout)))
            except BadDriver:
                raise
            except DynamicUnavailable as err:  # no run can do better: each finding says why
                unavailable = str(err)
                break
    finally:  # also on Ctrl-C: the runs' own sessions never see the terminal's SIGINT
        server.close()
    tried: dict[int, str] = {}  # a flagged module's finding -> what the first script importing it ran into
    for spec_driver, spec_files, result in results:
        own = set(f["fid"] for f in spec_files.get(spec_driver.get("script", ""), []))
        for fid in fids:
            verdict = result.get(fid)
            if verdict is None:
                continue
            if driver.target is None and fid not in own and verdict["status"] in ("not-reached", "error"):
                # another script that never imported this file says nothing about it (but the
                # user should know it was run: it may be a real training entry point)
                script = os.path.relpath(spec_driver["script"], cwd)
                # (only a script that imports it: another file linted beside it says nothing)
                if script.endswith(".py") and os.path.basename(script) not in fids[fid].path \
                        and os.path.abspath(spec_driver["script"]) in _importers(fids[fid].path):
                    tried.setdefault(fid, f"`{script}`, a script beside it that imports it, was run and "
                                          f"never reached it ({verdict['evidence'].split('; ')[0]})")
                continue
            if fid not in verdicts or _RANK[verdict["status"]] > _RANK[verdicts[fid]["status"]]:
                verdicts[fid] = verdict

    hint = ("give a driver that runs it: --driver pkg.module:function (a zero-argument callable), "
            "or run your tests with pytest --gradlint")

    for fid, verdict in verdicts.items():
        if verdict["status"] == "not-reached":  # the site never ran: say how to make it run
            verdict["evidence"] += (f"; {tried[fid]}" if fid in tried else "") + f"; {hint}"

    by_finding = {id(f): fid for fid, f in fids.items()}

    def unseen(finding: Finding) -> Verdict:
        if unavailable is not None:
            return Verdict("error", unavailable)
        ran = tried.get(by_finding.get(id(finding)))
        return Verdict("not-reached", f"{ran if ran else f'the driver never imported {finding.path}'}; {hint}")

    return attach(findings, fids, verdicts, unseen)


MAX_IMPORTERS = 3  # scripts run per flagged module that runs nothing itself


def _runs_anything(path: str) -> bool:
    """Whether running the file as a script does anything but define and import: a call, a loop
    or a ``with`` at its top level, or an ``if __name__ == "__main__":``."""
    import ast

    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return True  # (its own run says what is wrong)
    # (a docstring, or any lone constant, is an expression statement that runs nothing)
    return any(type(stmt) in (ast.Expr, ast.For, ast.While, ast.With, ast.If, ast.Try)
               and not (type(stmt) is ast.Expr and type(stmt.value) is ast.Constant) for stmt in tree.body)


def _importers(path: str) -> list[str]:
    """The scripts in the folder of ``path`` that import it by its module name and run; for a
    module of a package (its folder holds ``__init__.py``), also the scripts in the folder above
    that import it through the package (`from models.block import MoEBlock`, or `from models
    import MoEBlock` of a package whose `__init__` imports it)."""
    folder, name = os.path.split(os.path.abspath(path))
    stem = re.escape(os.path.splitext(name)[0])
    places = [(folder, re.compile(rf"^\s*(?:from\s+\.?{stem}\s+import\b|import\s+{stem}\b)", re.M))]
    if os.path.isfile(os.path.join(folder, "__init__.py")):
        package = re.escape(os.path.basename(folder))
        places.append((os.path.dirname(folder), re.compile(
            rf"^\s*(?:from\s+{package}(?:\.{stem})?\s+import\b|import\s+{package}(?:\.{stem})?\b)", re.M)))
    found = []
    for where, imports in places:
        try:
            entries = sorted(os.listdir(where))
        except OSError:
            continue
        for entry in entries:
            other = os.path.join(where, entry)
            if not entry.endswith(".py") or other == os.path.abspath(path) or not os.path.isfile(other):
                continue
            try:
                with open(other, encoding="utf-8") as f:
                    text = f.read()
            except (OSError, UnicodeDecodeError):
                continue
            if imports.search(text) and _runs_anything(other):
                found.append(other)
                if len(found) == MAX_IMPORTERS:
                    return found
    return found


# Codes with nothing to run, each with the evidence its verdict gives: they are never probed,
# and --dynamic-only never hides them (a file that was not checked; a fact about comments).
UNPROBED = {
    "GL000": "the file does not parse, so it cannot run",
    "GL010": "gradlint's parser did not read the file, so nothing in it can be probed",
    "GL900": "an unused suppression is a fact about the comments: there is nothing to run",
}


NOTEBOOK = ("the dynamic pass does not run notebooks: export the notebook as a script "
            "(jupyter nbconvert --to script) and check that")


def probes(findings: list[Finding], unrunnable=frozenset()) -> tuple[dict[int, Finding], dict[str, list[dict]]]:
    """The findings the dynamic pass can probe, by fid, and the files to instrument: real path ->
    [{"fid", "code", "line", "column", "end_line", "end_column"}]. ``UNPROBED`` codes have
    nothing to run, and text that is not a file on disk (``unrunnable``: standard input) is
    never run, nor is a notebook (a finding with a ``cell``): it runs cell by cell in a kernel."""
    fids = {i: f for i, f in enumerate(
        f for f in findings if f.code not in UNPROBED and f.cell is None and f.path not in unrunnable
        and os.path.isfile(f.path))}
    files: dict[str, list[dict]] = {}
    for fid, f in fids.items():
        files.setdefault(os.path.realpath(f.path), []).append(
            {"fid": fid, "code": f.code, "line": f.line, "column": f.column,
             "end_line": f.end_line, "end_column": f.end_column})
    return fids, files


def attach(findings: list[Finding], fids: dict[int, Finding], verdicts: dict[int, dict],
           unseen: Callable[[Finding], Verdict]) -> list[Finding]:
    """``findings``, each with its verdict: the run's for a probed one, ``unseen(finding)`` for a
    probed one no run decided, and not-reached for one that could not be probed."""
    by_finding = {id(f): fid for fid, f in fids.items()}
    out = []
    for f in findings:
        fid = by_finding.get(id(f))
        if fid is None:
            verdict = Verdict("not-reached", UNPROBED.get(f.code, NOTEBOOK if f.cell is not None else
                              "the dynamic pass runs files on disk only, not standard input"))
        elif fid in verdicts:
            v = verdicts[fid]
            verdict = Verdict(v["status"], v["evidence"], v.get("graph"))
        else:
            verdict = unseen(f)
        out.append(dataclasses.replace(f, verdict=verdict))
    return out


# Seconds the worker may take to import torch (a cold disk, a loaded machine) even when
# --timeout is shorter; a longer --timeout is the bound.
START_LIMIT = 30.0
# Seconds past --timeout to wait for the worker's word on a run: it gives the program KILL_GRACE
# to write its verdicts after SIGTERM, then ends whatever the program started.
ANSWER_MARGIN = 30.0

# The worker is started by `python -c` (not -m, which puts the working folder first on sys.path:
# a torch.py there would be imported instead of torch) with that '' entry dropped, and gradlint
# found where this process found it. The program later gets the sys.path `python script.py`
# would give it (child.main_module).
_SERVE = """\
import sys
if sys.path and sys.path[0] == "":
    del sys.path[0]
if sys.argv[1] not in sys.path:
    sys.path.append(sys.argv[1])
from gradlint.dynamic.server import serve
sys.exit(serve())
"""


class _Server:
    """One warm child process (``gradlint.dynamic.server``) that imports torch once and
    forks a fresh process per run, so a run costs a fork rather than an interpreter and a torch
    import. Started on first use; every wait for it is bounded. While it exists this process
    is a child subreaper (Linux: ``reap``), so what a run started stays below this process even
    if the run kills the worker; ``close`` kills the worker, the run still going and every
    process they left, and gives back the orphans of other children this process had before."""

    def __init__(self, cwd: str | None, timeout: float):
        self.cwd = cwd
        self.start_limit = max(timeout, START_LIMIT)
        self.proc: subprocess.Popen | None = None
        self.running: int | None = None  # pid of the run in progress
        self.log = tempfile.TemporaryFile()
        self.buffer = b""
        self.before = reap.children()  # not ours to end
        self.was_subreaper = reap.subreaper(True)

    def run(self, spec_path: str, result_path: str, out: str, err: str, timeout: float) -> tuple[int | None, bool, str]:
        """(exit status of the run, whether it hit the time limit, ""), or (None, False, what
        became of the worker) if the worker died or stopped answering."""
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        job = {"spec": spec_path, "result": result_path, "stdout": out, "stderr": err, "timeout": timeout,
               "cwd": self.cwd or os.getcwd()}
        limit, answer = self.start_limit, None
        try:
            self.proc.stdin.write((json.dumps(job) + "\n").encode())
            self.proc.stdin.flush()
            answer = self._read(limit)
            if answer and "pid" in answer:
                self.running = answer["pid"]
                limit = timeout + ANSWER_MARGIN
                answer = self._read(limit)
        except OSError:
            answer = {}
        if answer is not None and "returncode" in answer:
            self.running = None
            return answer["returncode"], answer["timed_out"], ""
        status = self._stop()  # the run too: it is not left to spin with no one to stop it
        if answer is None:
            return None, False, f"the dynamic pass's worker process did not answer within {limit:g} s"
        how = f" ({_signal_name(-status)})" if status is not None and status < 0 else ""
        return None, False, f"the dynamic pass's worker process died{how} while the program ran"

    def _start(self) -> None:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _SERVE, root],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, cwd=self.cwd,
            start_new_session=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.buffer = b""
        hello = self._read(self.start_limit)
        if hello is None:
            self._stop()
            tail = self._log_tail()
            raise DynamicUnavailable(f"the dynamic pass's worker process (which imports torch) did not "
                                     f"start within {self.start_limit:g} s{': ' + tail if tail else ''}")
        if "no_torch" in hello:
            self._stop()
            raise DynamicUnavailable(
                f"the dynamic pass needs torch, which {sys.executable} cannot import "
                f"({hello['no_torch']}): {TORCH_HINT}")
        if not hello.get("ready"):
            self._stop()
            raise DynamicUnavailable(f"the dynamic pass could not start: {self._log_tail() or 'no reason given'}")

    def _read(self, limit: float) -> dict | None:
        """The worker's next answer: {} if it closed its end, None if none came within ``limit``
        seconds. Lines that are no answer (a print at start-up: a sitecustomize, a .pth file)
        are passed over."""
        import select

        deadline = time.monotonic() + limit
        while True:
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                if not select.select([self.proc.stdout], [], [], left)[0]:
                    continue
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    return {}
                self.buffer += chunk
            line, _, self.buffer = self.buffer.partition(b"\n")
            try:
                answer = json.loads(line)
            except ValueError:
                continue
            if isinstance(answer, dict):
                return answer

    def _log_tail(self) -> str:
        self.log.seek(0)
        lines = self.log.read().decode("utf-8", errors="replace").strip().splitlines()
        return lines[-1] if lines else ""

    def _stop(self) -> int | None:
        """Kill the worker, the run in progress and everything they started; the worker's exit
        status, if there was a worker."""
        status = None
        if self.running is not None:
            _signal_group(self.running, signal.SIGKILL)
            self.running = None
        if self.proc is not None:
            reap.end_below(self.proc.pid)  # while the worker lives, what it started is below it
            _signal_group(self.proc.pid, signal.SIGKILL)
            status = self.proc.wait()
            for stream in (self.proc.stdin, self.proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            self.proc = None
        reap.end_below(os.getpid(), spare=self.before)  # what a dead worker's runs handed to us
        return status

    def close(self) -> None:
        self._stop()
        if self.was_subreaper is False:
            reap.subreaper(False)


def _run_child(server: _Server, spec: dict, timeout: float) -> dict[int, dict]:
    """fid -> verdict dict, for the findings of one run; every fid of the spec gets one."""
    every = [f["fid"] for findings in spec["files"].values() for f in findings]
    with tempfile.TemporaryDirectory(prefix="gradlint-") as tmp:
        spec_path = os.path.join(tmp, "spec.json")
        result_path = os.path.join(tmp, "result.json")
        with open(spec_path, "w", encoding="utf-8") as handle:
            json.dump(spec, handle)
        returncode, timed_out, worker = server.run(spec_path, result_path, os.path.join(tmp, "stdout"),
                                                   os.path.join(tmp, "stderr"), timeout)
        stderr = _tail(os.path.join(tmp, "stderr"))
        try:
            with open(result_path, encoding="utf-8") as handle:
                result = json.load(handle)
        except (OSError, ValueError):
            result = None

    if result is None:
        why = _why_no_result(returncode, timed_out, timeout, stderr, worker)
        return {fid: {"status": "error", "evidence": why} for fid in every}
    outcome = result.get("outcome", {})
    if outcome.get("kind") == "bad-driver":
        raise BadDriver(f"--driver {spec['driver'].get('callable')}: {outcome.get('message')}")
    if outcome.get("kind") == "no-torch":
        message = outcome.get("message", "")
        if message.startswith("MemoryError"):
            raise DynamicUnavailable(f"torch does not fit in the {spec.get('memory_limit')} MB "
                                     "the dynamic pass allows: raise --memory-limit")
        raise DynamicUnavailable(
            f"the dynamic pass needs torch, which {sys.executable} cannot import"
            f"{' (' + message + ')' if message else ''}: {TORCH_HINT}")
    verdicts = {int(k): v for k, v in result.get("verdicts", {}).items()}
    reason = _undecided_reason(outcome, timeout, spec.get("memory_limit", 0))
    out = {}
    for fid in every:
        verdict = verdicts.get(fid)
        if verdict is None:
            if reason:  # the run stopped before it imported this finding's file
                verdict = {"status": "not-reached", "evidence": "its file was never imported"}
            else:
                continue
        if reason and verdict["status"] in ("not-reached", "inconclusive"):
            verdict = {"status": "error", "evidence": f"{reason}; {verdict['evidence']}"}
        out[fid] = verdict
    return out


def _shown_path(path) -> str:
    """``train.py, `` for a path the user's working directory reaches, as they would name it."""
    if not path:
        return ""
    relative = os.path.relpath(path)
    return f"{path if relative.startswith('..') else relative}, "


def _undecided_reason(outcome: dict, timeout: float, memory_limit: int = 0) -> str:
    """Why the run stopped early, for findings it left undecided; "" if it completed."""
    kind = outcome.get("kind")
    if kind == "timeout":
        return f"the program was stopped at the {timeout:g} s time limit (--timeout)"
    if kind == "exited" and (outcome.get("status") or outcome.get("how") == "os._exit"):
        # os._exit skips every finally and atexit: an abrupt end even with status 0
        return f"the program exited with status {outcome['status']} ({outcome.get('how', 'exit')})"
    if kind == "raised":
        where = f" at {_shown_path(outcome.get('path'))}line {outcome['line']}" if outcome.get("line") else ""
        message = f": {outcome['message']}" if outcome.get("message") else ""
        kind = outcome.get("type")
        if kind in ("MemoryError", "OutOfMemoryError") or any(
                oom in message.lower() for oom in _OOM):
            cap = (f" (the dynamic pass lets a run allocate {memory_limit} MB: --memory-limit)"
                   if memory_limit and "cuda" not in message.lower() else "")
            # "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't ...": the
            # first part is where in torch's C++ it failed
            message = re.sub(r"\[enforce fail at [^\]]*\] err == 0\. ", "", message)
            return f"the program ran out of memory{where}{cap}: {kind}{message}"
        hint = ""
        if kind in ("ModuleNotFoundError", "ImportError"):
            missing = re.search(r"No module named '([\w.]+)'", message)
            hint = ("; the file ran as a script: where its imports are your project's packages, run "
                    "gradlint from the project's root or name a function that runs it with --driver "
                    "module:function")
            name = missing.group(1).split(".")[0] if missing else None
            folders = os.path.dirname(outcome.get("path") or "").split(os.sep)
            if name is not None and name in folders:
                # (`from src.lm import …` in src/decode.py, run as a script: its own folder leads
                # sys.path, so the package it sits in is no name there)
                hint = (f"; the file ran as a script from inside `{name}`, so `{name}` itself is not "
                        f"importable there: name a function that runs the program with --driver "
                        f"module:function")
            elif missing:
                # (a package of the project, or one the environment lacks: which, only the user knows)
                hint = (f"; if `{name}` is a package of your project, run gradlint from the project's root "
                        f"or name a function that runs the program with --driver module:function; if it is "
                        f"a third-party package, install it where gradlint runs ({sys.executable})")
        return f"the program raised {kind}{where}{message}{hint}"
    return ""


def _why_no_result(returncode, timed_out: bool, timeout: float, stderr: str, worker: str = "") -> str:
    if timed_out:
        return f"the program was killed at the {timeout:g} s time limit (--timeout) before any evidence was written"
    if returncode is not None and returncode < 0:
        name = _signal_name(-returncode)
        if name == "SIGKILL":  # not ours: the parent kills only after the time limit
            return ("the program was killed (SIGKILL), perhaps by the system's out-of-memory "
                    "killer, before any evidence was written")
        return f"the program crashed ({name}) before any evidence was written"
    last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
    if returncode is None:
        worker = worker or "the dynamic pass's worker process died"
        return f"{worker}{': ' + last if last else ''}"
    return f"the dynamic pass failed (exit status {returncode}){': ' + last if last else ''}"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _signal_group(pid: int, sig) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _tail(path: str, limit: int = 4000) -> str:
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(handle.tell() - limit, 0))
            return handle.read().decode("utf-8", errors="replace")
    except OSError:
        return ""

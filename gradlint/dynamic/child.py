"""The child process of ``gradlint check --dynamic``: run a driver under the tracer, write verdicts.

    python -m gradlint.dynamic.child SPEC.json RESULT.json

SPEC: ``{"driver": {"script": PATH} | {"callable": "pkg.mod:fn"}, "files": {PATH: [finding…]},
"show_graph": bool, "memory_limit": MB | 0}`` where each finding is ``{"fid", "code", "line",
"column", "end_line", "end_column"}``. RESULT: ``{"verdicts": {fid: {"status", "evidence"[, "graph"]}},
"outcome": {"kind": "completed" | "exited" | "raised" | "timeout" | "no-torch", ...},
"tracer_errors": [...]}``.

The flagged modules are instrumented when they are imported (a ``sys.meta_path`` finder) or run
as the script; nothing else is touched. The result is written when the driver returns or raises,
when the program calls ``os._exit``, and when the parent's SIGTERM says the time is up; a crash
writes nothing, and the parent says so.
"""
from __future__ import annotations

import builtins
import importlib.abc
import importlib.machinery
import inspect
import json
import os
import signal
import sys
import tokenize
import traceback
import types

from gradlint.dynamic.instrument import PROBE, instrument


class Session:
    """One instrumented run: the flagged files (real path -> findings to probe), the tracer, and
    the import hook that instruments those files. The child process and the pytest plugin both
    drive one."""

    def __init__(self, files: dict[str, list[dict]], show_graph: bool = False):
        from gradlint.dynamic.tracer import Tracer

        self.files = {os.path.realpath(path): findings for path, findings in files.items()}
        self.findings: dict[int, dict] = {}  # fid -> the finding as the tracer received it
        self.unplaced: dict[int, str] = {}
        # real path -> probes of findings reported in another file, to place when this one is
        # imported (``Instrumented.foreign``: a cut inside a helper of another file of the project)
        self.foreign: dict[str, list] = {}
        self.placed: dict[str, list] = {}  # real path -> such probes placed in its code
        self._code: dict = {}  # real path -> its code, instrumented before the program ran
        self.ran: set[str] = set()  # real paths whose code the program ran
        self.prepared: set[str] = set()  # real paths instrumented before the program ran
        self.tracer = Tracer(set(self.files), show_graph=show_graph)
        self._finder = None
        self._undo = []

    def start(self) -> None:
        """Install the probes' builtin, the import hook and the optimizer watch; enter the mode."""
        self.prepare()
        # The probes reach the tracer as a global of each instrumented module (torch.compile
        # traces globals, and rejects a builtin it does not know), and as a builtin for code
        # compiled some other way.
        setattr(builtins, PROBE, self.tracer)
        finder = self._finder = _Finder(self)
        sys.meta_path.insert(0, finder)
        self._undo.append(lambda: sys.meta_path.remove(finder))
        self._undo.append(self.tracer.watch_optimizers())
        self._undo.append(_count_processes(self.tracer))
        self.tracer.__enter__()
        self._undo.append(lambda: self.tracer.__exit__(None, None, None))

    def stop(self) -> None:
        while self._undo:
            try:
                self._undo.pop()()
            except Exception:  # a mode stack the program left unbalanced: nothing to restore
                pass

    def verdicts(self, raised: BaseException | None = None) -> dict[int, dict]:
        """fid -> {"status", "evidence"[, "graph"]} for every finding whose module was
        instrumented; ``raised``: the exception the program ended with, if any."""
        self.tracer.raised = raised
        verdicts = self.tracer.verdicts()
        for fid, why in self.unplaced.items():
            verdicts[fid] = {"status": "error", "evidence": why}
        # (a file instrumented before the run that the run never imported: its findings have no
        # verdict of the run, as if never instrumented, and its caller says why)
        for path in self.prepared - self.ran:
            for want in self.files.get(path, ()):
                verdicts.pop(want["fid"], None)
        for path, pending in [*self.foreign.items(), *((p, f) for p, f in self.placed.items() if p not in self.ran)]:
            for finding, _, _ in pending:  # (the file holding the probes was never imported)
                verdicts.setdefault(finding.fid, {"status": "not-reached", "evidence": (
                    f"the run never imported {os.path.basename(path)}, where line {finding.line} is")})
        return verdicts

    def prepare(self) -> None:
        """Instrument every flagged file before the program runs: a finding of one file whose
        cut lies in a helper of a third (`loss_fn(…)` handed a function of losses.py) places its
        probes in that file, which the program may import first."""
        for path in list(self.files):
            try:
                self._code[path] = self.instrumented_code(path)
                self.prepared.add(path)
            except (OSError, SyntaxError, UnicodeDecodeError):
                continue  # (left to the import, which reports it as Python would)
        again = True
        while again:  # (a file instrumented before another placed probes in it)
            again = False
            for path in list(self._code):
                if self.foreign.get(path) and path not in self.ran:
                    self._code[path] = self.instrumented_code(path)
                    again = True
        for path in list(self.foreign):  # (files instrumented only for others' probes)
            if path not in self._code and os.path.isfile(path):
                self._code[path] = self.instrumented_code(path)

    def code_for(self, path: str):
        """The code the program runs for the module at ``path`` (instrumented)."""
        self.ran.add(path)
        if path in self._code and not self.foreign.get(path):
            return self._code.pop(path)
        return self.instrumented_code(path)

    def instrumented_code(self, path: str):
        """The code object of the module at ``path``, probes placed where its findings are."""
        with tokenize.open(path) as handle:  # the encoding Python would use (PEP 263, BOM)
            source = handle.read()
        wanted = self.files.get(path, [])
        foreign = self.placed.get(path, []) + self.foreign.pop(path, [])
        self.placed[path] = foreign
        try:
            result = instrument(source, path, wanted, foreign=foreign)
        except Exception as err:  # never let instrumentation stop the program: run it plain
            for fid in [want["fid"] for want in wanted] + [finding.fid for finding, _, _ in foreign]:
                self.unplaced[fid] = f"gradlint could not instrument {path}: {type(err).__name__}: {err}"
            return compile(source, path, "exec", dont_inherit=True)
        self.unplaced.update(result.unplaced)
        for other, pending in result.foreign.items():
            if any(getattr(m, "__file__", None) and os.path.realpath(m.__file__) == other
                   for m in list(sys.modules.values())):
                for finding, _, _ in pending:  # (imported before this file ran: too late to probe)
                    self.unplaced[finding.fid] = f"{os.path.basename(other)} was imported before the probes were known"
                continue
            known = {finding.fid for finding, _, _ in self.placed.get(other, []) + self.foreign.get(other, [])}
            self.foreign.setdefault(other, []).extend(p for p in pending if p[0].fid not in known)
            self.files.setdefault(other, [])
            self.tracer.files.add(other)
            if self._finder is not None:
                self._finder.watch(other)
        for fid, finding in result.findings.items():
            self.findings[fid] = finding.to_json()
            self.tracer.add_finding(fid, self.findings[fid])
        return compile(result.source, path, "exec", dont_inherit=True)


def _count_processes(tracer):
    """Count the processes the program starts (``os.fork``, ``multiprocessing`` with any start
    method), so that a site that ran only in one of them is not reported as never run without
    saying so. Returns a function that undoes what can be undone."""
    import multiprocessing.process

    me, starting = os.getpid(), []

    def forked():
        if os.getpid() == me and not starting and not stopped:
            tracer.processes += 1
    os.register_at_fork(before=forked)  # cannot be unregistered; it counts nothing once stopped
    original = multiprocessing.process.BaseProcess.start

    def start(process):
        tracer.processes += 1
        starting.append(process)
        try:
            return original(process)
        finally:
            starting.pop()
    multiprocessing.process.BaseProcess.start = start

    def undo():
        nonlocal stopped
        multiprocessing.process.BaseProcess.start = original
        stopped = True
    stopped = False
    return undo


class _Result:
    """Writes the result file once, whichever way the run ends first. Only the child itself
    writes: a process the program forked (a DataLoader worker ending in ``os._exit``, or one
    getting the group's SIGTERM) has a stale copy of the record."""

    def __init__(self, path: str):
        self.path = path
        self.session: Session | None = None
        self.written = False
        self.pid = os.getpid()

    def write(self, outcome: dict) -> None:
        if self.written or os.getpid() != self.pid:
            return
        self.written = True
        verdicts, errors = {}, []
        if self.session is not None:
            try:  # a SIGTERM can land mid-update of the record: still write the outcome
                verdicts = self.session.verdicts(outcome.get("exception"))
            except Exception as err:
                errors.append(f"verdicts: {type(err).__name__}: {err}")
            errors = [*self.session.tracer.errors, *errors]
        outcome = {k: v for k, v in outcome.items() if k != "exception"}
        data = {"verdicts": {str(k): v for k, v in verdicts.items()}, "outcome": outcome,
                "tracer_errors": errors}
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(data, handle, default=str)
        os.replace(tmp, self.path)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds modules as Python does; the flagged ones get a loader that instruments them."""

    def __init__(self, run: Session):
        self.run = run
        # The last part of a dotted name that can be a flagged file: most imports are not,
        # and are left to the other finders without a second search of sys.path.
        self.names = set()
        for path in run.files:
            self.watch(path)

    def watch(self, path: str) -> None:
        """Instrument the file at ``path`` too when it is imported."""
        self.names.add(os.path.basename(os.path.dirname(path)) if os.path.basename(path) == "__init__.py"
                       else os.path.splitext(os.path.basename(path))[0])

    def find_spec(self, fullname, path=None, target=None):
        if fullname.rpartition(".")[2] not in self.names:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or not spec.origin or not spec.has_location:
            return None
        origin = os.path.realpath(spec.origin)
        if origin not in self.run.files:
            return None
        spec.loader = _Loader(fullname, spec.origin, self.run, origin)
        return spec


class _Loader(importlib.machinery.SourceFileLoader):
    def __init__(self, fullname, path, run: Session, real: str):
        super().__init__(fullname, path)
        self.run = run
        self.real = real

    def get_code(self, fullname):  # never read or write a .pyc of the instrumented code
        return self.run.code_for(self.real)

    def exec_module(self, module):
        module.__dict__[PROBE] = self.run.tracer  # a global, not only a builtin: see Session.start
        super().exec_module(module)


def _exception_place(err: BaseException, files) -> tuple[str, int]:
    """(path, line) of the innermost frame of the user's files the exception passed through."""
    tb = err.__traceback__
    place = ("", 0)
    while tb is not None:
        if tb.tb_frame.f_code.co_filename in files:
            place = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    return place


def main(argv: list[str]) -> int:
    spec_path, result_path = argv
    with open(spec_path, encoding="utf-8") as handle:
        spec = json.load(handle)
    result = _Result(result_path)
    _limit_memory(spec.get("memory_limit", 0))
    try:
        import torch  # noqa: F401
    except Exception as err:  # ImportError, or a broken install (OSError from a missing library)
        result.write({"kind": "no-torch", "message": f"{type(err).__name__}: {err}"})
        return 0
    run = result.session = Session(spec["files"], show_graph=spec.get("show_graph", False))

    real_exit = os._exit

    def exit_now(status):  # os._exit skips every finally: write the verdicts first
        result.write({"kind": "exited", "status": status, "how": "os._exit"})
        real_exit(status)
    os._exit = exit_now

    def on_term(signum, frame):
        result.write({"kind": "timeout"})
        real_exit(124)
    signal.signal(signal.SIGTERM, on_term)

    driver = spec["driver"]
    outcome: dict = {"kind": "completed"}
    run.start()
    try:
        if "script" in driver:
            _run_script(run, os.path.realpath(driver["script"]))
        else:
            _run_callable(driver["callable"])
    except BadDriver as err:
        outcome = {"kind": "bad-driver", "message": str(err)}
    except SystemExit as stop:
        code = stop.code
        status = 0 if code is None else code if isinstance(code, int) else 1
        outcome = {"kind": "exited", "status": status, "how": "sys.exit"}
    except BaseException as err:  # noqa: B902 - KeyboardInterrupt from the program is its outcome too
        outcome = {"kind": "raised", "type": type(err).__name__, "message": str(err).splitlines()[0][:300] if str(err) else "",
                   **dict(zip(("path", "line"), _exception_place(err, run.files))), "exception": err,
                   "traceback": "".join(traceback.format_exception(err))[-2000:]}
    finally:
        run.stop()
    result.write(outcome)
    sys.stdout.flush()
    sys.stderr.flush()
    real_exit(0)  # skip interpreter teardown: user threads and atexit handlers are not ours to wait for
    return 0


def _limit_memory(megabytes: int) -> None:
    """Cap the data segment (the heap and private anonymous mappings: what tensors take, not the
    mapped libraries) so an allocation too big for the machine fails in the program, as a
    RuntimeError or MemoryError, instead of swapping the machine or waking the OOM killer."""
    try:
        import resource
    except ImportError:  # not on Windows
        return
    if not megabytes:
        return
    limit = megabytes * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    try:
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    except (ValueError, OSError):
        pass


def main_module(path: str) -> types.ModuleType:
    """A fresh ``__main__`` for running ``path`` as ``python path`` would: installed in
    ``sys.modules``, ``sys.argv == [path]``, the file's folder first on ``sys.path``."""
    module = types.ModuleType("__main__")
    module.__file__ = path
    module.__builtins__ = builtins
    module.__spec__ = None
    sys.modules["__main__"] = module
    sys.argv = [path]
    sys.path.insert(0, os.path.dirname(path))
    return module


def _run_script(run: Session, path: str) -> None:
    """Run ``path`` as ``python path`` would, instrumented if it is flagged."""
    module = main_module(path)
    module.__dict__[PROBE] = run.tracer
    if path in run.files:
        code = run.code_for(path)
    else:
        with tokenize.open(path) as handle:
            code = compile(handle.read(), path, "exec", dont_inherit=True)
    exec(code, module.__dict__)


class BadDriver(Exception):
    """The --driver names nothing callable; the message says what is missing."""


def _run_callable(target: str) -> None:
    """Import ``pkg.module`` (the working directory first on sys.path, as ``python -m`` does)
    and call ``function`` in it with no arguments; a coroutine it returns is run to the end."""
    module_name, _, attr = target.partition(":")
    sys.path.insert(0, os.getcwd())
    try:
        obj = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name and (module_name == err.name or module_name.startswith(err.name + ".")):
            raise BadDriver(f"no module named '{err.name}' (looked in {os.getcwd()} and sys.path)") from None
        raise  # the driver's own module failed to import something: the program's error
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise BadDriver(f"'{module_name}' has no attribute '{attr}'")
        obj = getattr(obj, part)
    if not callable(obj):
        raise BadDriver(f"'{target}' is a {type(obj).__name__}, not a function")
    result = obj()
    if inspect.iscoroutine(result):
        import asyncio

        asyncio.run(result)
    elif inspect.isgenerator(result):
        for _ in result:
            pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

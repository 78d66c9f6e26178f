"""Run programs plain and instrumented, and say what each run printed and raised.

    python tests/transparency.py [plain:]FILE...  [plain:]FOLDER/...

One helper process imports torch once (and runs no torch op, so forking stays safe); for each
file it forks twice (a ``plain:`` one once; a folder's program, its ``main.py``, is run plain
from inside the folder, as ``cd FOLDER; python main.py`` would run it):

* the **plain** run executes the file as ``python FILE`` would: as ``__main__``, ``sys.argv ==
  [FILE]``, the file's folder first on ``sys.path``;
* the **instrumented** run executes it through a ``gradlint.dynamic.child.Session`` holding the
  file's static findings (``gradlint.lint_source``), exactly as ``gradlint check --dynamic``
  runs a flagged script: probes placed, the tracer's ``TorchFunctionMode`` entered, the
  optimizer watch installed, and the verdicts computed afterwards.

Both runs start from the same seeds (``torch``, ``random``, ``numpy``), on one intra-op
thread (so a reduction's order, and the digits it prints, cannot differ between them), with
stdin on /dev/null and stdout/stderr in files. One JSON line per file goes to stdout::

    {"path", "findings", "plain": RUN, "instrumented": RUN, "seconds"}
    RUN: {"kind": "completed" | "raised" | "exited" | "killed", "type", "message",
          "status", "stdout", "stderr", "cpu_seconds", "tracer_errors", "verdicts"}

``message`` is the first line of ``str(exception)``. ``tests/test_transparency.py`` compares
the two runs; this script only reports them.
"""
from __future__ import annotations

import json
import os
import random
import signal
import sys
import tempfile
import time
import traceback

RUN_TIMEOUT = 60  # seconds per run; SIGALRM ends a run that takes longer
PLAIN_ONLY = "plain:"  # an argument's prefix: run that file plain only (no lint, no instrumented run)
STREAM_LIMIT = 20000  # characters of stdout/stderr kept per run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import torch  # noqa: E402  (imported once, before any fork; no op runs in this process)

try:  # the first optimizer imports torch._dynamo (~1.5 s): once here, not in every run
    import torch._dynamo  # noqa: E402, F401
except Exception:  # pragma: no cover
    pass

try:
    import numpy  # noqa: E402
except ImportError:  # pragma: no cover - numpy is a dev dependency
    numpy = None

import gradlint  # noqa: E402
from gradlint.dynamic import child  # noqa: E402


def findings_of(path: str) -> list[dict]:
    """The file's static findings, as the parent of ``--dynamic`` hands them to the child."""
    with open(path, "rb") as handle:
        source = handle.read()
    out = []
    for fid, f in enumerate(f for f in gradlint.lint_source(source, path) if f.code != "GL000"):
        out.append({"fid": fid, "code": f.code, "line": f.line, "column": f.column,
                    "end_line": f.end_line, "end_column": f.end_column})
    return out


def _seed() -> None:
    torch.set_num_threads(1)  # one thread: runs that never race each other or spin on the helper's cores
    torch.manual_seed(0)
    random.seed(0)
    if numpy is not None:
        numpy.random.seed(0)


def _plain(path: str) -> None:
    """``python path``, minus the interpreter start (a folder: ``cd path; python main.py``)."""
    if os.path.isdir(path):
        os.chdir(path)
        path = os.path.join(path, "main.py")
    module = child.main_module(path)
    with open(path, encoding="utf-8") as handle:
        code = compile(handle.read(), path, "exec", dont_inherit=True)
    exec(code, module.__dict__)


def _outcome(err: BaseException | None) -> dict:
    if err is None:
        return {"kind": "completed"}
    if isinstance(err, SystemExit):
        code = err.code
        return {"kind": "exited", "status": 0 if code is None else code if isinstance(code, int) else 1}
    text = str(err)
    return {"kind": "raised", "type": type(err).__name__, "message": text.splitlines()[0] if text else "",
            "traceback": "".join(traceback.format_exception(err))[-3000:]}


def _child_body(path: str, findings: list[dict] | None, result_path: str) -> None:
    """In the forked child: run the program, write what happened to ``result_path``."""
    signal.alarm(RUN_TIMEOUT)
    _seed()
    result: dict = {}
    if findings is None:
        raised = None
        try:
            _plain(path)
        except BaseException as err:  # noqa: B902 - the program's outcome, whatever it is
            raised = err
        result = _outcome(raised)
    else:
        session = child.Session({path: findings})
        raised = None
        session.start()
        try:
            child._run_script(session, path)
        except BaseException as err:  # noqa: B902
            raised = err
        finally:
            session.stop()
        result = _outcome(raised)
        try:
            result["verdicts"] = {str(k): v for k, v in session.verdicts(raised).items()}
        except Exception as err:  # a crash deciding is a bug too, but not a transparency one
            result["verdicts_error"] = f"{type(err).__name__}: {err}"
        result["tracer_errors"] = list(session.tracer.errors)
    signal.alarm(0)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        pass
    with open(result_path, "w", encoding="utf-8") as handle:
        json.dump(result, handle, default=str)


def run_once(path: str, findings: list[dict] | None, scratch: str) -> dict:
    """Fork, run ``path`` plain (``findings is None``) or instrumented, and collect the outcome."""
    out_path, err_path, result_path = (os.path.join(scratch, name) for name in ("out", "err", "result.json"))
    for name in (out_path, err_path, result_path):
        if os.path.exists(name):
            os.unlink(name)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never return into the helper's loop
        status = 0
        try:
            devnull = os.open(os.devnull, os.O_RDONLY)
            os.dup2(devnull, 0)
            os.dup2(os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
            os.dup2(os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 2)
            _child_body(path, findings, result_path)
        except BaseException:  # noqa: B902 - a harness failure: say so on the run's stderr
            try:
                traceback.print_exc()
                sys.stderr.flush()
            except Exception:
                pass
            status = 70
        os._exit(status)
    _, wait_status, usage = os.wait4(pid, 0)
    run: dict
    if os.path.exists(result_path):
        with open(result_path, encoding="utf-8") as handle:
            run = json.load(handle)
    elif os.WIFSIGNALED(wait_status):
        sig = os.WTERMSIG(wait_status)
        run = {"kind": "killed", "signal": signal.Signals(sig).name,
               "message": "timed out" if sig == signal.SIGALRM else ""}
    else:  # the program called os._exit, or the harness itself failed (status 70)
        run = {"kind": "exited", "status": os.WEXITSTATUS(wait_status), "how": "os._exit"}
    run["cpu_seconds"] = round(usage.ru_utime + usage.ru_stime, 3)
    for key, name in (("stdout", out_path), ("stderr", err_path)):
        with open(name, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        run[key] = text if len(text) <= STREAM_LIMIT else text[:STREAM_LIMIT] + f"\n... ({len(text)} characters)"
    return run


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="gradlint-transparency-") as scratch:
        for arg in argv:
            plain_only = arg.startswith(PLAIN_ONLY)
            arg = arg.removeprefix(PLAIN_ONLY)
            path = os.path.realpath(arg)
            started = time.perf_counter()
            entry: dict = {"path": arg}
            try:
                if plain_only:
                    entry["plain"] = run_once(path, None, scratch)
                else:
                    findings = findings_of(path)
                    entry["findings"] = findings
                    entry["plain"] = run_once(path, None, scratch)
                    entry["instrumented"] = run_once(path, findings, scratch)
            except Exception as err:  # report it for this file and go on with the next
                entry["error"] = f"{type(err).__name__}: {err}\n{traceback.format_exc()}"
            entry["seconds"] = round(time.perf_counter() - started, 3)
            sys.stdout.write(json.dumps(entry, default=str) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

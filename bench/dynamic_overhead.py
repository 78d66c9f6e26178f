"""Wall-time cost of ``gradlint check --dynamic``: a training script run instrumented vs plain.

    .venv/bin/python bench/dynamic_overhead.py [--repeat N] [--profile] [SCRIPT]

Each measurement is one fresh Python process, plain and instrumented alternating, ``--repeat``
times each. Both processes import torch and pin its thread count *before* the timer starts, so
the import is excluded from both times; so is ``torch._dynamo``, which torch imports on the first
optimizer's construction (about a second in both runs; ``--lazy-imports-in-timer`` keeps it in,
which dilutes the ratio and favours the instrumented run, whose static pass has already imported
some of the same modules before its timer).

- plain: read and compile the script, run it as ``__main__`` (as ``python SCRIPT`` would).
- instrumented: compute the script's static findings with ``gradlint.lint_source`` and build a
  ``Session`` for them (before the timer); then time ``session.start()``, the run of the
  instrumented script as ``__main__`` (the libcst rewrite included, as the child of
  ``--dynamic`` does it), ``session.stop()`` and ``session.verdicts()``.

Prints both medians, the ratio instrumented/plain against the target (<= 1.5), and the verdicts
the instrumented runs reached, so the reader sees the probes did their work. Exits 0 whatever
the ratio (a benchmark reports, it does not fail); 1 if a measured process itself failed.
``--profile`` adds one instrumented run under cProfile and prints its top costs by tottime.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCRIPT = os.path.join(HERE, "inputs", "mlp_train.py")
TARGET = 1.5
MARK = "@@gradlint-bench@@ "  # prefix of the result line a measured process prints


# ---- the measured processes -------------------------------------------------------------------



def _import_torch(lazy_in_timer: bool) -> None:
    """Import torch before the timer; unless ``lazy_in_timer``, also the part of torch's import
    it defers to first use: ``torch.optim.Optimizer.__init__`` imports ``torch._dynamo`` (and
    with it sympy, about a second), the same fixed cost in both runs and no part of training."""
    import torch

    if not lazy_in_timer:
        import torch._dynamo  # noqa: F401
        import torch.optim  # noqa: F401


def _child(mode: str, path: str, threads: int, profile: int, lazy_in_timer: bool) -> int:
    _import_torch(lazy_in_timer)
    import torch

    torch.set_num_threads(threads)
    from gradlint.dynamic.child import main_module  # imports libcst: outside the timers, as in both

    path = os.path.realpath(path)
    result: dict = {"mode": mode}
    if mode == "plain":
        start, cpu = time.perf_counter(), time.process_time()
        module = main_module(path)
        with open(path, encoding="utf-8") as handle:
            code = compile(handle.read(), path, "exec", dont_inherit=True)
        exec(code, module.__dict__)
        result["seconds"], result["cpu"] = time.perf_counter() - start, time.process_time() - cpu
    else:
        import gradlint
        from gradlint.dynamic import child

        with open(path, encoding="utf-8") as handle:
            findings = gradlint.lint_source(handle.read(), path)
        probed = [f for f in findings if f.code != "GL000"]
        files = {path: [{"fid": fid, "code": f.code, "line": f.line, "column": f.column,
                         "end_line": f.end_line, "end_column": f.end_column}
                        for fid, f in enumerate(probed)]}
        session = child.Session(files)
        profiler = None
        if profile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        start, cpu = time.perf_counter(), time.process_time()
        session.start()
        try:
            child._run_script(session, path)
        finally:
            session.stop()
        verdicts = session.verdicts()
        result["seconds"], result["cpu"] = time.perf_counter() - start, time.process_time() - cpu
        if profiler is not None:
            profiler.disable()
        result["verdicts"] = [
            {"finding": f"{f.code} line {f.line}: {f.message}", **verdicts.get(fid, {"status": "missing"})}
            for fid, f in enumerate(probed)]
        result["tracer_errors"] = session.tracer.errors
        if profiler is not None:
            import io
            import pstats

            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(profile)
            result["profile"] = out.getvalue()
    sys.stdout.flush()
    print(MARK + json.dumps(result), flush=True)
    return 0


# ---- the driver ------------------------------------------------------------------------------

def _measure(mode: str, script: str, threads: int, lazy_in_timer: bool, profile: int = 0) -> dict:
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        env[var] = str(threads)
    cmd = [sys.executable, os.path.abspath(__file__), "--child", mode, "--threads", str(threads),
           "--profile-lines", str(profile), script] + (["--lazy-imports-in-timer"] if lazy_in_timer else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    for line in proc.stdout.splitlines():
        if line.startswith(MARK):
            return json.loads(line[len(MARK):])
    raise RuntimeError(f"the {mode} run failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Print the wall-time ratio instrumented/plain of a training script under "
                    "gradlint's dynamic pass (torch import excluded from both; target <= 1.5).")
    parser.add_argument("script", nargs="?", default=DEFAULT_SCRIPT,
                        help="the training script to run (default: bench/inputs/mlp_train.py)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each kind, alternating (default 5)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads in both runs (default 1)")
    parser.add_argument("--profile", action="store_true",
                        help="also profile one instrumented run (cProfile) and print its top costs by tottime")
    parser.add_argument("--top", type=int, default=25, help="lines of the profile to print (default 25)")
    parser.add_argument("--lazy-imports-in-timer", action="store_true",
                        help="leave the part of torch's import it defers to the first optimizer "
                             "(torch._dynamo, ~1 s) inside both timers: dilutes the ratio, and favours the "
                             "instrumented run, which imported some of the same modules before its timer")
    parser.add_argument("--child", choices=("plain", "instrumented"), help=argparse.SUPPRESS)
    parser.add_argument("--profile-lines", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        return _child(args.child, args.script, args.threads, args.profile_lines, args.lazy_imports_in_timer)

    script = os.path.abspath(args.script)
    times: dict[str, list[float]] = {"plain": [], "instrumented": []}
    cpu: dict[str, list[float]] = {"plain": [], "instrumented": []}
    last: dict = {}
    try:
        for i in range(max(1, args.repeat)):
            for mode in ("plain", "instrumented"):
                result = _measure(mode, script, args.threads, args.lazy_imports_in_timer)
                times[mode].append(result["seconds"])
                cpu[mode].append(result["cpu"])
                if mode == "instrumented":
                    last = result
            print(f"run {i + 1}: plain {times['plain'][-1]:.3f} s  instrumented {times['instrumented'][-1]:.3f} s",
                  flush=True)
    except RuntimeError as err:
        print(err, file=sys.stderr)
        return 1

    plain = statistics.median(times["plain"])
    instrumented = statistics.median(times["instrumented"])
    ratio = instrumented / plain
    verdict = "met" if ratio <= TARGET else "MISSED"
    deferred = "inside" if args.lazy_imports_in_timer else "outside"
    print(f"{os.path.relpath(script)}: {args.threads} thread(s), {len(times['plain'])} runs each, medians "
          f"(torch import outside the timers; its deferred torch._dynamo import {deferred})")
    print(f"plain {plain:.3f} s  instrumented {instrumented:.3f} s  ratio {ratio:.2f} (target <= {TARGET}: {verdict})")
    cpu_plain, cpu_instrumented = statistics.median(cpu["plain"]), statistics.median(cpu["instrumented"])
    print(f"(CPU time, less sensitive to a busy machine: plain {cpu_plain:.3f} s  instrumented "
          f"{cpu_instrumented:.3f} s  ratio {cpu_instrumented / cpu_plain:.2f})")
    for v in last.get("verdicts", []):
        print(f"  {v['finding']}\n    dynamic: {v['status']}: {v.get('evidence', '')}")
    if not last.get("verdicts"):
        print("  (the static pass flags nothing in this script: the instrumentation had nothing to probe)")
    for err in last.get("tracer_errors", []):
        print(f"  tracer error: {err}")

    if args.profile:
        try:
            result = _measure("instrumented", script, args.threads, args.lazy_imports_in_timer, profile=args.top)
        except RuntimeError as err:
            print(err, file=sys.stderr)
            return 1
        print(f"\nprofile of one instrumented run ({result['seconds']:.3f} s under cProfile), by tottime:")
        print(result["profile"])
    return 0


if __name__ == "__main__":
    sys.exit(main())

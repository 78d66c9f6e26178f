"""Whole-corpus speed: gradlint cold and warm against the libcst parse floor (issue 5).

Runs, in alternation, ``--runs`` times, each as one process:

- cold: ``gradlint check`` with an emptied ``--cache-dir`` (it fills the cache, as a first run
  does), with the default ``-j`` (one process per CPU);
- warm: the same command again, nothing changed;
- floor: every ``.py`` under the folder parsed with ``libcst.parse_module``, in one process.

It prints the medians, the ratios gradlint/floor, the number of findings (and whether cold, warm,
``--no-cache -j 1`` agree), and the peak memory of the cold run: the largest resident set of
any one process of it (the parent or a worker, from ``wait4``; the kernel keeps the maximum over
a process and the children it reaped) and the largest sum over its processes (sampled from
/proc every 50 ms, Linux only).

    bash ../shared/tools/make_corpus.sh /work/.mirror /tmp/corpus
    python bench/corpus.py /tmp/corpus [--runs 3]

It also runs cold once over half the corpus (the first half of its top-level folders, one
repository each in a corpus made by the scripts below) and compares the peak resident sets: memory
must stay flat as the corpus grows (the whole within 1.25x the half).

    bash ../shared/tools/make_corpus.sh /work/.mirror /tmp/corpus    # 7 repositories
    bash bench/make_corpus2.sh /work/.mirror /tmp/corpus2             # 14 others

Targets: cold <= 0.25 x floor, warm <= 0.25 s, peak RSS < 400 MB and flat.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

COLD_RATIO, WARM_SECONDS, RSS_MB, RSS_GROWTH = 0.25, 0.25, 400, 1.25
# As a user's machine runs it: with PYTHONDONTWRITEBYTECODE set (some CI images and sandboxes
# set it) every process compiles gradlint's modules changed since their .pyc was last written,
# a tenth of a warm run; the first run here writes them.
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}

FLOOR = """\
import pathlib, sys
import libcst
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.py")):
    try:
        libcst.parse_module(path.read_bytes())
    except Exception:
        pass
"""


def gradlint_command() -> list[str]:
    script = Path(sys.executable).with_name("gradlint")
    return [str(script)] if script.exists() else [sys.executable, "-m", "gradlint"]


def measure(command: list[str]) -> tuple[float, float, float, str]:
    """(wall s, peak RSS MB of the largest process, peak RSS MB summed over the process tree,
    stdout) of one process run to its end."""
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV)
    tree_peak = [0]
    done = threading.Event()
    sampler = threading.Thread(target=_sample, args=(proc.pid, tree_peak, done), daemon=True)
    sampler.start()
    out = proc.stdout.read()
    _, _, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    done.set()
    sampler.join()
    proc.returncode = 0  # reaped by wait4 above; keep Popen from waiting again
    return wall, usage.ru_maxrss / 1024, tree_peak[0] / 1024, out.decode()


def _sample(pid: int, peak: list[int], done: threading.Event) -> None:
    while not done.wait(0.05):
        peak[0] = max(peak[0], sum(_rss_kb(p) for p in _tree(pid)))


def _tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        current = todo.pop()
        pids.append(current)
        try:
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            continue
        todo += map(int, children)
    return pids


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=Path("/tmp/corpus"))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"bench/corpus.py: error: {args.folder} is not a folder "
              "(bash ../shared/tools/make_corpus.sh /work/.mirror /tmp/corpus)", file=sys.stderr)
        return 2
    cache = Path(tempfile.mkdtemp(prefix="gradlint-bench-cache-"))
    check = [*gradlint_command(), "check", "--output-format", "json", "--exit-zero",
             "--cache-dir", str(cache), str(args.folder)]
    floor = [sys.executable, "-c", FLOOR, str(args.folder)]
    colds, warms, floors, rss, tree = [], [], [], [], []
    outputs = set()
    try:
        measure(floor)  # warm the OS file cache and the .pyc files
        for run in range(args.runs):
            shutil.rmtree(cache, ignore_errors=True)
            wall, largest, total, out = measure(check)
            colds.append(wall), rss.append(largest), tree.append(total), outputs.add(out)
            wall, _, _, out = measure(check)
            warms.append(wall), outputs.add(out)
            floors.append(measure(floor)[0])
            print(f"  run {run + 1}: cold {colds[-1]:.2f} s, warm {warms[-1]:.2f} s, floor {floors[-1]:.2f} s",
                  flush=True)
        uncached = measure([*check[:-3], "--no-cache", "-j", "1", str(args.folder)])[3]
        parts = sorted(p for p in args.folder.iterdir() if p.is_dir())
        half = [str(p) for p in parts[:max(1, (len(parts) + 1) // 2)]] or [str(args.folder)]
        half_rss = measure([*check[:-3], "--no-cache", *half])[1]
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    cold, warm, base = (statistics.median(x) for x in (colds, warms, floors))
    findings = len(json.loads(next(iter(outputs))))
    same = len(outputs) == 1 and uncached in outputs
    results = [
        ("cold", cold / base <= COLD_RATIO),
        ("warm", warm <= WARM_SECONDS),
        ("rss", max(rss) < RSS_MB),
        ("flat", max(rss) <= RSS_GROWTH * half_rss),
        ("same", same),
    ]
    print(f"{args.folder}: median of {args.runs} runs, {os.cpu_count()} CPUs")
    print(f"  libcst parse floor, 1 process  {base:7.2f} s")
    print(f"  gradlint cold                  {cold:7.2f} s   ratio {cold / base:.3f} (target <= {COLD_RATIO})")
    print(f"  gradlint warm                  {warm:7.2f} s   (target <= {WARM_SECONDS} s wall)")
    print(f"  peak RSS of the cold run       {max(rss):7.0f} MB  largest process (target < {RSS_MB} MB); "
          f"{max(tree):.0f} MB summed over its processes")
    print(f"  peak RSS over half the corpus  {half_rss:7.0f} MB  ({len(half)} of {len(parts)} folders; "
          f"the whole within {RSS_GROWTH}x: {max(rss) / half_rss:.2f}x)")
    print(f"  findings                       {findings:7d}     "
          f"{'identical' if same else 'DIFFERENT'} cold, warm and --no-cache -j 1")
    print("  targets: " + ", ".join(f"{name} {'met' if ok else 'NOT met'}" for name, ok in results))
    return 0 if all(ok for _, ok in results) else 1


if __name__ == "__main__":
    sys.exit(main())

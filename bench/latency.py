"""Single-file latency, what a pre-commit hook or an editor's save waits for.

Times, in alternation, whole processes: ``gradlint check FILE`` and ``python -c "import libcst"``
(the floor: gradlint cannot parse without importing libcst), and prints the medians and their
ratio; then, if pygls is installed, the language server's answer to a didSave of the same file
(bench/lsp_save.py).

    python bench/latency.py [FILE] [--runs N]

FILE defaults to bench/inputs/model_500.py, a 509-line model file. Targets (issue 4): ratio
<= 2.0, didSave <= 100 ms after warm-up.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_FILE = HERE / "inputs" / "model_500.py"
RATIO_TARGET = 2.0


def wall(command: list[str]) -> float:
    """Seconds from start to exit of one process; its output is discarded."""
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def gradlint_command() -> list[str]:
    # The console script beside this interpreter, as a user runs it; ``-m`` if there is none.
    script = Path(sys.executable).with_name("gradlint")
    return [str(script)] if script.exists() else [sys.executable, "-m", "gradlint"]


def measure(path: Path, runs: int) -> tuple[float, float]:
    """(median s of ``gradlint check path``, median s of ``import libcst``), runs alternated so
    that a busy moment of the machine costs both alike."""
    check = [*gradlint_command(), "check", "--no-cache", str(path)]
    floor = [sys.executable, "-c", "import libcst"]
    wall(check), wall(floor)  # warm the OS file cache and the .pyc files
    checks, floors = [], []
    for _ in range(runs):
        checks.append(wall(check))
        floors.append(wall(floor))
    return statistics.median(checks), statistics.median(floors)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args(argv)
    lines = len(args.file.read_text(encoding="utf-8").splitlines())
    check, floor = measure(args.file, args.runs)
    ratio = check / floor
    print(f"{args.file.name} ({lines} lines), median of {args.runs} runs:")
    print(f"  gradlint check       {check * 1000:6.0f} ms")
    print(f"  python -c 'import libcst' {floor * 1000:6.0f} ms")
    print(f"  ratio {ratio:.2f} (target <= {RATIO_TARGET}: {'met' if ratio <= RATIO_TARGET else 'NOT met'})")
    met = ratio <= RATIO_TARGET
    try:
        import pygls  # noqa: F401
    except ImportError:
        print("  lsp didSave: skipped (pip install 'gradlint[lsp]')")
        return 0 if met else 1
    sys.path.insert(0, str(HERE))
    import lsp_save

    met = lsp_save.main([str(args.file)]) == 0 and met
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())

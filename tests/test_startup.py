"""A one-file run (pre-commit, an editor's save) imports only what it needs: bench/latency.py
measures the time, this keeps the heavy imports from creeping back in."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "rich", "pathspec", "importlib.metadata", "pygls", "jsonschema")


def imported_by(*args: str) -> list[str]:
    script = ("import json, sys\n"
              "from gradlint.cli import main\n"
              f"main({list(args)!r})\n"
              "sys.stdout.flush()\n"
              "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    modules = json.loads(proc.stderr.strip().splitlines()[-1])
    return sorted(m for m in modules if m in HEAVY or m.startswith(tuple(h + "." for h in HEAVY)))


def test_checking_one_file_imports_nothing_heavy():
    assert imported_by("check", "--no-cache", "--output-format", "concise",
                       "bench/inputs/model_500.py") == []


def test_the_full_format_brings_rich_only_when_it_prints():
    assert any(m.startswith("rich") for m in imported_by(
        "check", "--no-cache", "--output-format", "full", "fixtures/GL004/bad_accumulated_total_loss_retain.py"))


def test_a_run_the_cache_answers_never_imports_the_analysis(tmp_path):
    # A warm run reads findings from the cache: building the rule catalogue must not import the
    # model (``gradlint.checks``' contract: a rule module's top level imports only ``ast`` and
    # its package).
    cache = tmp_path / "cache"
    source = str(ROOT / "fixtures/GL004/bad_accumulated_total_loss_retain.py")
    args = ["check", "--cache-dir", str(cache), "--exit-zero", "--output-format", "concise", source]
    subprocess.run([sys.executable, "-m", "gradlint", *args], cwd=ROOT, capture_output=True, check=True)
    script = ("import json, sys\n"
              "from gradlint.cli import main\n"
              "try:\n"
              f"    main({args!r})\n"
              "except SystemExit:\n"
              "    pass\n"
              "sys.stdout.flush()\n"
              "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    modules = json.loads(proc.stderr.strip().splitlines()[-1])
    assert "GL004" in proc.stdout  # answered, from the cache
    # (where a file's imports resolve is asked of every file: the cache keys findings by it)
    resolving = {"gradlint.analysis", "gradlint.analysis.project"}
    assert [m for m in modules if m.startswith(("gradlint.analysis", "gradlint.engine", "libcst"))
            and m not in resolving] == []

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

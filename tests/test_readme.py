"""The README's pasted run must be what gradlint prints today."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_readme_run_on_the_shipped_fixtures_is_current():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```\n\$ (gradlint check --output-format full [^\n]+)\n(.*?)```", readme, re.S)
    assert block, "the README no longer shows a run on fixtures/"
    command, shown = block.group(1), block.group(2)
    args = shlex.split(command)[1:]
    proc = subprocess.run([sys.executable, "-m", "gradlint", *args], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stdout + proc.stderr == shown


def test_readme_dynamic_run_is_current():
    """The pasted --dynamic run (verdicts, evidence and graphs) is what the dynamic pass prints."""
    pytest.importorskip("torch")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```\n\$ (gradlint check --dynamic [^\n]+)\n(.*?)```", readme, re.S)
    assert block, "the README no longer shows a --dynamic run"
    command, shown = block.group(1), block.group(2)
    proc = subprocess.run([sys.executable, "-m", "gradlint", *shlex.split(command)[1:]], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stdout + proc.stderr == shown
    assert "confirmed: `gain` influenced" in shown and "✗ gain: not in this record" in shown

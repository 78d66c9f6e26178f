"""The static pass must never import torch: a pre-commit install has none, and importing it
would cost seconds per run. This runs the whole CLI over every fixture with torch made
unimportable, and checks that torch was not even looked for."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROGRAM = r"""
import sys

class NoTorch:
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ImportError("gradlint's static pass imported torch")
        return None

sys.meta_path.insert(0, NoTorch())
from gradlint.cli import main
code = main(["check", "--output-format", "json", "--quiet", sys.argv[1]])
assert "torch" not in sys.modules, "torch was imported"
sys.exit(0 if code in (0, 1) else code)
"""


def test_check_runs_without_torch(fixture_set):
    proc = subprocess.run([sys.executable, "-c", PROGRAM, str(fixture_set)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "internal error" not in proc.stderr
    assert '"code": "GL001"' in proc.stdout  # the rules really ran

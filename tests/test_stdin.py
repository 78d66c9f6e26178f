"""Standard input under ``--stdin-filename`` (how editors run gradlint) and ``--force-exclude``
(how pre-commit runs it): the project's ``[tool.gradlint]`` applies to the name given as it
would to the file on disk.
"""
from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from gradlint import cli

ROOT = Path(__file__).resolve().parent.parent
SOURCE = (ROOT / "fixtures/GL001/bad_two_param_loop_detached_feature.py").read_bytes()
CONFIG = """\
[tool.gradlint]
extend-exclude = ["src/vendored/"]

[tool.gradlint.per-file-ignores]
"src/legacy/**" = ["GL001"]
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project with a config at its top; the current directory is its ``src`` folder, so a
    name given relative to it must be matched against patterns relative to the top."""
    (tmp_path / "pyproject.toml").write_text(CONFIG)
    src = tmp_path / "src"
    for folder in ("legacy", "vendored", "models"):
        (src / folder).mkdir(parents=True)
        (src / folder / "train.py").write_bytes(SOURCE)
    monkeypatch.chdir(src)
    return tmp_path


def check(capsys, monkeypatch, *args: str, stdin: bytes = SOURCE) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = cli.main(["check", "--output-format", "concise", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("dash", [["-"], []], ids=["dash", "name-alone"])
def test_per_file_ignores_match_the_stdin_name(project, capsys, monkeypatch, dash):
    code, out, _ = check(capsys, monkeypatch, *dash, "--stdin-filename", "models/train.py")
    assert code == 1 and out.startswith("models/train.py:19:12: GL001 ")
    code, out, _ = check(capsys, monkeypatch, *dash, "--stdin-filename", "legacy/train.py")
    assert (code, out) == (0, "")


def test_an_excluded_stdin_name_is_linted_unless_force_exclude(project, capsys, monkeypatch):
    # As in ruff: the user piped the text in on purpose; --force-exclude is the editor's way to
    # say "only if the project lints this file".
    code, out, _ = check(capsys, monkeypatch, "-", "--stdin-filename", "vendored/train.py")
    assert code == 1 and out.startswith("vendored/train.py:19:12: GL001 ")
    code, out, err = check(capsys, monkeypatch, "-", "--stdin-filename", "vendored/train.py",
                           "--force-exclude")
    assert (code, out) == (0, "")
    assert "warning" not in err and "0 files checked" in err
    code, out, _ = check(capsys, monkeypatch, "-", "--stdin-filename", "models/train.py",
                         "--force-exclude")
    assert code == 1 and out.startswith("models/train.py:19:12: GL001 ")


def test_paths_beside_a_stdin_name_are_ignored_with_a_warning(project, capsys, monkeypatch):
    (project / "src" / "broken.py").write_text("def f(:\n")
    code, out, err = check(capsys, monkeypatch, "--stdin-filename", "models/train.py", "broken.py",
                           stdin=b"x = 1\n")
    assert (code, out) == (0, "")  # stdin is clean, and broken.py was not read
    assert "gradlint: warning: ignoring broken.py in favor of standard input" in err
    assert "1 file checked" in err


def test_an_empty_stdin_name_is_a_usage_error(project, capsys, monkeypatch):
    code, out, err = check(capsys, monkeypatch, "-", "--stdin-filename", "")
    assert (code, out) == (2, "")
    assert err.strip() == "gradlint: error: --stdin-filename: empty name"


def test_force_exclude_drops_excluded_files_named_on_the_command_line(project, capsys, monkeypatch):
    named = ["models/train.py", "vendored/train.py"]
    _, out, _ = check(capsys, monkeypatch, *named)
    assert sorted(line.split(":")[0] for line in out.splitlines()) == named  # named: linted
    code, out, err = check(capsys, monkeypatch, "--force-exclude", *named)
    assert code == 1 and [line.split(":")[0] for line in out.splitlines()] == ["models/train.py"]
    code, out, err = check(capsys, monkeypatch, "--force-exclude", "vendored/train.py")
    assert (code, out) == (0, "") and "no Python files found" not in err


def test_end_to_end_through_a_pipe(project):
    result = subprocess.run(
        [sys.executable, "-m", "gradlint", "check", "--stdin-filename", "legacy/train.py",
         "--output-format", "concise"],
        cwd=project / "src", input=SOURCE, capture_output=True, timeout=60,
    )
    assert (result.returncode, result.stdout) == (0, b"")
    result = subprocess.run(
        [sys.executable, "-m", "gradlint", "check", "-", "--stdin-filename", "models/train.py",
         "--output-format", "concise"],
        cwd=project / "src", input=SOURCE, capture_output=True, timeout=60,
    )
    assert result.returncode == 1 and result.stdout.startswith(b"models/train.py:19:12: GL001 ")

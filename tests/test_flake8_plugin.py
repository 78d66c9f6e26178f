"""The flake8 plugin, through the real ``flake8`` (installed by the dev extra) in a subprocess.

``--isolated`` keeps any flake8 config above the test folders out of the runs. flake8's default
format, ``path:row:col: CODE text``, is gradlint's concise format, so the two must print the
very same lines.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gradlint import cli

ROOT = Path(__file__).resolve().parent.parent
BAD = "fixtures/GL001/bad_two_param_loop_detached_feature.py"
SYNTAX_ERROR = "fixtures/GL000/bad_unclosed_call_in_training_loop.py"
CLEAN = "fixtures/GL001/good_two_param_loop_repaired.py"

pytest.importorskip("flake8", reason="flake8 is in the dev extra: pip install -e '.[dev]'")


def flake8(*args: str, cwd: Path = ROOT, stdin: str | None = None) -> subprocess.CompletedProcess:
    # (the time limit only stops a hang: every fixture through flake8 takes a minute on an idle
    # machine, and several on a loaded one)
    return subprocess.run([sys.executable, "-m", "flake8", "--isolated", *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=900)


def gl_lines(output: str) -> list[str]:
    return sorted(line for line in output.splitlines() if ": GL" in line)


def concise(capsys, *paths: str) -> list[str]:
    cli.main(["check", "--output-format", "concise", "-q", *paths])
    return sorted(capsys.readouterr().out.splitlines())


def test_the_plugin_is_registered():
    version = flake8("--version")
    assert version.returncode == 0
    assert "gradlint:" in version.stdout


def test_the_fixtures_give_the_same_lines_as_gradlint_check(capsys, monkeypatch, fixture_set):
    # Every rule, many columns; the files that do not parse are flake8's own E999 (below).
    monkeypatch.chdir(fixture_set.parent)
    folders = sorted(str(p.relative_to(fixture_set.parent)) for p in fixture_set.glob("GL00[1-9]"))
    expected = concise(capsys, *folders)
    assert len(expected) > 50 and {line.split(": ")[1][:5] for line in expected} >= {"GL001", "GL005"}
    result = flake8("--select", "GL", *folders, cwd=fixture_set.parent)
    assert result.returncode == 1, result.stderr
    assert gl_lines(result.stdout) == expected
    assert result.stderr == ""


def test_stdin_reports_under_the_display_name(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    expected = concise(capsys, BAD)
    assert expected
    result = flake8("--select", "GL", "--stdin-display-name", BAD, "-", stdin=(ROOT / BAD).read_text())
    assert gl_lines(result.stdout) == expected


def test_codes_are_on_by_default_and_extend_select_adds_them_to_a_select():
    default = gl_lines(flake8(BAD).stdout)
    assert [line.split(": ")[1][:5] for line in default] == ["GL001"]
    assert gl_lines(flake8("--select", "E", BAD).stdout) == []  # a select without GL drops them...
    assert gl_lines(flake8("--select", "E", "--extend-select", "GL", BAD).stdout) == default  # ...this restores


def test_noqa_and_per_file_ignores_are_flake8s(tmp_path):
    path = tmp_path / "train.py"
    shutil.copy(ROOT / BAD, path)
    found = gl_lines(flake8("--select", "GL", "train.py", cwd=tmp_path).stdout)
    assert len(found) == 1
    line = int(found[0].split(":")[1])
    assert gl_lines(flake8("--select", "GL", "--per-file-ignores", "train.py:GL001", "train.py",
                           cwd=tmp_path).stdout) == []

    lines = path.read_text().splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].rstrip("\n") + "  # noqa: E501\n"  # another code: still reported
    path.write_text("".join(lines))
    assert gl_lines(flake8("--select", "GL", "train.py", cwd=tmp_path).stdout) == found
    lines[line - 1] = lines[line - 1].replace("# noqa: E501", "# noqa: GL001")
    path.write_text("".join(lines))
    result = flake8("--select", "GL", "train.py", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "")


def test_a_clean_file_gives_nothing():
    result = flake8("--select", "GL", CLEAN)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_a_file_that_does_not_parse_is_flake8s_e999_alone():
    result = flake8(SYNTAX_ERROR)
    assert result.stderr == ""  # the plugin did not crash
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and ": E999 SyntaxError:" in lines[0], result.stdout


HELPER = """\
import torch


def penalty(out):
    value = out.detach().pow(2).mean().numpy()
    return torch.tensor(value, requires_grad=True)
"""

TRAIN = """\
import torch
import torch.nn as nn

from helpers import penalty

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
out = model(torch.randn(8, 4))
loss = out.mean() + penalty(out)
loss.backward()
opt.step()
"""


def test_a_site_of_another_file_checked_too_is_reported_there_once(tmp_path):
    """One mistake, one finding, as `gradlint check` keeps it: at the copy in helpers.py where
    flake8 checks that file too, at the call in train.py where it checks train.py alone."""
    (tmp_path / "helpers.py").write_text(HELPER)
    (tmp_path / "train.py").write_text(TRAIN)
    both = gl_lines(flake8("--select", "GL", ".", cwd=tmp_path).stdout)
    assert [line.split(":")[0:2] for line in both] == [["./helpers.py", "6"]], both
    alone = gl_lines(flake8("--select", "GL", "train.py", cwd=tmp_path).stdout)
    assert [line.split(":")[0:2] for line in alone] == [["train.py", "9"]], alone

"""``--diff-base REV``: only findings on lines changed since REV, with real git repositories."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from gradlint import cli

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

LOOP = """\
import torch

model = torch.nn.Linear(2, 1)
state = torch.zeros(4, 1)
for x in [torch.randn(4, 2) for _ in range(3)]:
    state = model(x) + state
    state.sum().backward(retain_graph=True)
"""
# The same loop again, appended: a second GL004 finding, on new lines.
SECOND = """\
for y in [torch.randn(4, 2) for _ in range(3)]:
    state = model(y) + state
    state.mean().backward(retain_graph=True)
"""


def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
                        "HOME": str(repo), "PATH": "/usr/bin:/bin:/usr/local/bin"})


@pytest.fixture
def repo(tmp_path, monkeypatch):
    git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "train.py").write_text(LOOP)
    git(tmp_path, "add", "train.py")
    git(tmp_path, "commit", "-q", "-m", "base")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(capsys, *args):
    status = cli.main(["check", "--output-format", "json", *args])
    out, err = capsys.readouterr()
    return status, [(f["path"], f["line"], f["code"]) for f in json.loads(out)] if out else [], err


def test_only_findings_on_changed_lines_are_reported(repo, capsys):
    (repo / "train.py").write_text(LOOP + SECOND)
    status, found, err = check(capsys, "--diff-base", "HEAD", ".")
    assert status == 1
    assert found == [("train.py", 10, "GL004")]
    assert "1 finding on lines unchanged since HEAD not reported" in err
    # Without the option both are there: the filter, not the checks, dropped line 7.
    assert [f[1] for f in check(capsys, ".")[1]] == [7, 10]


def test_committed_and_staged_changes_count_too(repo, capsys):
    (repo / "train.py").write_text(LOOP + SECOND)
    git(repo, "commit", "-q", "-am", "second loop")
    assert check(capsys, "--diff-base", "HEAD~1", ".")[1] == [("train.py", 10, "GL004")]
    assert check(capsys, "--diff-base", "HEAD", ".")[:2] == (0, [])


def test_an_edit_inside_a_findings_range_counts(repo, capsys):
    (repo / "train.py").write_text(LOOP.replace("retain_graph=True)", "retain_graph=True)  # keep"))
    assert check(capsys, "--diff-base", "HEAD", ".")[1] == [("train.py", 7, "GL004")]


def test_untracked_files_are_new_in_every_line(repo, capsys):
    (repo / "new_model.py").write_text(LOOP)
    assert check(capsys, "--diff-base", "HEAD", ".")[1] == [("new_model.py", 7, "GL004")]


def test_a_renamed_file_counts_only_its_changed_lines(repo, capsys):
    git(repo, "mv", "train.py", "trainer.py")
    (repo / "trainer.py").write_text(LOOP + SECOND)
    assert check(capsys, "--diff-base", "HEAD", ".")[1] == [("trainer.py", 10, "GL004")]


def test_a_path_git_quotes(repo, capsys):
    (repo / "café model.py").write_text(LOOP)
    git(repo, "add", "café model.py")
    git(repo, "commit", "-q", "-m", "quoted")
    (repo / "café model.py").write_text(LOOP + SECOND)
    assert check(capsys, "--diff-base", "HEAD", ".")[1] == [("café model.py", 10, "GL004")]


def test_run_from_a_subfolder(repo, capsys, monkeypatch):
    (repo / "pkg").mkdir()
    (repo / "pkg" / "loop.py").write_text(LOOP)
    monkeypatch.chdir(repo / "pkg")
    assert check(capsys, "--diff-base", "HEAD", ".")[1] == [("loop.py", 7, "GL004")]


@pytest.mark.parametrize("base, message", [
    ("no-such-branch", "gradlint: error: --diff-base: git knows no commit 'no-such-branch'"),
    ("--output=x", "gradlint: error: --diff-base: '--output=x' is not a revision"),
])
def test_a_bad_revision_is_a_usage_error(repo, capsys, base, message):
    status, found, err = check(capsys, f"--diff-base={base}", ".")
    assert (status, found) == (2, [])
    assert err.strip() == message


def test_outside_a_repository_is_a_usage_error(tmp_path, capsys, monkeypatch):
    (tmp_path / "train.py").write_text(LOOP)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    status, found, err = check(capsys, "--diff-base", "HEAD", ".")
    assert status == 2
    assert err.strip().endswith("is not in a git repository")
    assert "Traceback" not in err


def test_standard_input_is_compared_with_the_file_at_the_base(repo, capsys, monkeypatch):
    """An editor pipes its buffer in: what differs from the file at REV counts, not the disk."""
    import io

    buffer = (LOOP + SECOND).encode()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(buffer)))
    status, found, _ = check(capsys, "--diff-base", "HEAD", "--stdin-filename", "train.py", "-")
    assert (status, found) == (1, [("train.py", 10, "GL004")])


def test_standard_input_for_a_file_not_in_the_base_is_new(repo, capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(LOOP.encode())))
    status, found, _ = check(capsys, "--diff-base", "HEAD", "--stdin-filename", "pkg/new.py", "-")
    assert (status, found) == (1, [("pkg/new.py", 7, "GL004")])


SAVED = """\
import torch

w = torch.randn(3, requires_grad=True)
y = w + 1
y += 1
y.sum().backward()
"""


def test_a_finding_whose_cited_line_changed_is_kept(repo, capsys):
    """Only the line that saves the tensor changed; the unchanged in-place edit is now the bug."""
    (repo / "saved.py").write_text(SAVED)
    git(repo, "add", "saved.py")
    git(repo, "commit", "-q", "-m", "saved")
    (repo / "saved.py").write_text(SAVED.replace("y = w + 1", "y = torch.sigmoid(w)"))
    status, found, _ = check(capsys, "--diff-base", "HEAD", "saved.py")
    assert (status, found) == (1, [("saved.py", 5, "GL005")])


def test_a_finding_at_an_unchanged_call_whose_helper_changed_is_kept(repo, capsys):
    """Only the helper of another file changed (it now edits, through `.data`, the output the
    model saved); the finding is reported at the unchanged call in train.py, and kept."""
    (repo / "noise.py").write_text("def jitter(x):\n    return x + 0.1\n")
    (repo / "gan.py").write_text(
        "import torch\n\nfrom noise import jitter\n\n"
        "gen = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Tanh())\n"
        "opt = torch.optim.SGD(gen.parameters(), lr=0.1)\n"
        "fake = gen(torch.randn(2, 4))\n"
        "jitter(fake)\n"
        "fake.pow(2).mean().backward()\n"
        "opt.step()\n")
    git(repo, "add", "noise.py", "gan.py")
    git(repo, "commit", "-q", "-m", "gan")
    (repo / "noise.py").write_text("def jitter(x):\n    x.data.add_(0.1)\n    return x\n")
    status, found, err = check(capsys, "--diff-base", "HEAD", "gan.py", "noise.py")
    assert (status, found) == (1, [("gan.py", 8, "GL005")]), err


def test_a_file_in_another_repository_is_judged_in_its_own(repo, capsys, tmp_path_factory):
    other = tmp_path_factory.mktemp("other")
    git(other, "init", "-q", "-b", "main")
    (other / "old.py").write_text(LOOP)
    git(other, "add", "old.py")
    git(other, "commit", "-q", "-m", "base")
    (other / "new.py").write_text(LOOP)
    status, found, _ = check(capsys, "--diff-base", "HEAD", str(other))
    assert [(p.rsplit("/", 1)[-1], line) for p, line, _ in found] == [("new.py", 7)]


def test_a_file_outside_any_repository_is_an_error(repo, capsys, tmp_path_factory, monkeypatch):
    outside = tmp_path_factory.mktemp("outside")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(outside.parent))
    (outside / "loose.py").write_text(LOOP)
    status, found, err = check(capsys, "--diff-base", "HEAD", str(outside / "loose.py"))
    assert status == 2
    assert err.strip().endswith("loose.py is not in a git repository")


def test_run_from_outside_the_repository_it_checks(repo, capsys, tmp_path_factory, monkeypatch):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(elsewhere.parent))
    (repo / "train.py").write_text(LOOP + SECOND)
    monkeypatch.chdir(elsewhere)
    status, found, _ = check(capsys, "--diff-base", "HEAD", str(repo))
    assert [line for _, line, _ in found] == [10]

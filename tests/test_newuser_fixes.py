"""What a new user met in a first session: .gitignore read as git reads it, a folder named on
the command line linted though excluded (as ruff does), paths printed without ``..``, a file
reached through a symlink reported once, ``--statistics`` with a machine format as documented,
JSON that strict parsers read for a file name that is not UTF-8, and a message naming another
file from the current folder."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gradlint import cli
from gradlint.analysis import project
from gradlint.discovery import discover, passed_by
from test_project import _main  # the training script that calls an imported helper

ROOT = Path(__file__).resolve().parents[1]
BAD = "def f(:\n"  # GL000: a finding without any rule's analysis


@pytest.fixture
def here(tmp_path, monkeypatch):
    """An empty folder as the current directory."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def check(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(["check", "--no-cache", *args])
    out, err = capsys.readouterr()
    return code, out, err


# --- 1. .gitignore as git reads it ---------------------------------------------------------------

# Each tree, and the .py files git leaves untracked but not ignored (`git ls-files -o
# --exclude-standard`, git 2.x), checked again against git below where git is installed.
GITIGNORE_CASES = {
    "a deeper !old/ does not re-include what *.py above ignores": (
        {".gitignore": "*.py\n", "sub/.gitignore": "!old/\n", "sub/old/a.py": "", "sub/b.py": ""}, []),
    "a deeper !old/*.py does": (
        {".gitignore": "*.py\n", "sub/.gitignore": "!old/*.py\n", "sub/old/a.py": "", "sub/b.py": ""},
        ["sub/old/a.py"]),
    "a deeper !old/ re-includes a folder old/ above ignores": (
        {".gitignore": "old/\n", "sub/.gitignore": "!old/\n", "sub/old/a.py": "", "old/c.py": ""},
        ["sub/old/a.py"]),
    "nothing inside an ignored folder comes back": (
        {".gitignore": "old/\n", "sub/old/.gitignore": "!a.py\n", "sub/old/a.py": ""}, []),
    "in one file, !old/ after *.py names the folder only": (
        {".gitignore": "*.py\n!old/\n", "old/a.py": ""}, []),
    "a/** ignores what is in a, not a itself": (
        {".gitignore": "a/**\n", "a/.gitignore": "!x.py\n", "a/x.py": "", "a/b/y.py": ""}, ["a/x.py"]),
    "the last matching line of a file decides": (
        {".gitignore": "!x.py\nx.py\n", "x.py": "", "y.py": ""}, ["y.py"]),
    "a deeper !*.py re-includes its own files": (
        {".gitignore": "*.py\n", "sub/.gitignore": "!*.py\n", "sub/x.py": "", "y.py": ""}, ["sub/x.py"]),
}


@pytest.mark.parametrize("case", GITIGNORE_CASES)
def test_gitignore_is_read_as_git_reads_it(tmp_path, case):
    files, kept = GITIGNORE_CASES[case]
    write(tmp_path, files)
    (tmp_path / ".git").mkdir()
    assert [p.relative_to(tmp_path).as_posix() for p in discover([tmp_path], root=tmp_path)] == kept
    # The editor's question, one file at a time, gets the same answer.
    every = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.py"))
    assert [name for name in every if not passed_by(tmp_path / name, root=tmp_path)] == kept


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.parametrize("case", GITIGNORE_CASES)
def test_the_expected_files_are_what_git_says(tmp_path, case):
    files, kept = GITIGNORE_CASES[case]
    write(tmp_path, files)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, timeout=60)
    listed = subprocess.run(["git", "ls-files", "-o", "--exclude-standard"], cwd=tmp_path,
                            capture_output=True, text=True, check=True, timeout=60).stdout.split()
    assert sorted(p for p in listed if p.endswith(".py")) == kept


# --- 2. a folder named on the command line ---------------------------------------------------------

def test_a_folder_excluded_by_default_is_linted_when_named(here, capsys):
    write(here, {"build/gen.py": BAD, "build/sub/more.py": BAD})
    code, out, err = check(capsys, "--output-format", "concise", "build")
    assert code == 1
    assert [line.split(":")[0] for line in out.splitlines()] == ["build/gen.py", "build/sub/more.py"]
    assert "no Python files found" not in err
    # A folder below it, named, too; a search of the project still skips it.
    assert discover(["build/sub"]) == [Path("build/sub/more.py")]
    assert discover(["."]) == []


def test_a_gitignored_folder_is_linted_when_named(here):
    write(here, {".gitignore": "generated/\n", "generated/a.py": BAD, "b.py": BAD})
    assert discover(["generated"]) == [Path("generated/a.py")]
    assert discover(["."]) == [Path("b.py")]


def test_force_exclude_drops_a_named_folder_a_search_would_skip(here, capsys):
    write(here, {"build/gen.py": BAD, "build/sub/more.py": BAD, "src/a.py": BAD})
    assert discover(["build", "build/sub", "src"], force_exclude=True) == [Path("src/a.py")]
    assert passed_by("build", is_dir=True) and passed_by("build/sub", is_dir=True)
    assert not passed_by("src", is_dir=True) and not passed_by(".", is_dir=True)
    code, out, _ = check(capsys, "--output-format", "concise", "--force-exclude", "build")
    assert (code, out) == (0, "")


# --- 3. paths printed without .. --------------------------------------------------------------------

def test_printed_paths_are_normalized(here, capsys):
    write(here, {"a/b/keep.py": BAD})
    for spelled in ("a/b/../../a/b/keep.py", "./a/./b/../b/keep.py", "a/b/../b", "a/../a/"):
        code, out, _ = check(capsys, "--output-format", "concise", spelled)
        assert (code, out.split(":")[0]) == (1, "a/b/keep.py"), spelled


def test_a_path_whose_short_spelling_is_another_file_is_kept(here):
    # After a symlinked folder, `..` is the parent of the link's target: `link/../x.py` is not x.py.
    write(here, {"x.py": BAD, "other/x.py": BAD, "other/deep/y.py": ""})
    (here / "link").symlink_to(here / "other" / "deep")
    assert discover(["link/../x.py"]) == [Path("link/../x.py")]


# --- 4. a file with two names -------------------------------------------------------------------------

def test_a_symlinked_file_is_reported_once_by_its_own_name(here, capsys):
    write(here, {"z.py": BAD})
    (here / "a_link.py").symlink_to("z.py")  # sorts first: the link's name is still not the one kept
    for args in ([], ["."], ["a_link.py", "z.py"], ["z.py", "a_link.py"], ["a_link.py", "."]):
        code, out, err = check(capsys, "--output-format", "concise", *args)
        assert (code, [line.split(":")[0] for line in out.splitlines()]) == (1, ["z.py"]), args
        assert "(1 file not checked)" in err  # one file, under one name (it does not parse)
    # Alone, the link is linted under its name.
    code, out, _ = check(capsys, "--output-format", "concise", "a_link.py")
    assert out.startswith("a_link.py:1:")


def test_a_file_named_twice_in_two_spellings_is_reported_once(here, capsys):
    write(here, {"pkg/a.py": BAD})
    code, out, _ = check(capsys, "--output-format", "concise", "pkg/a.py", str(here / "pkg" / "a.py"), "pkg/../pkg/a.py")
    assert len(out.splitlines()) == 1


# --- 5. --statistics with a machine format: as the README says ----------------------------------------

def test_statistics_with_github_keeps_the_annotations_as_documented(here, capsys):
    write(here, {"a.py": BAD})
    code, out, err = check(capsys, "--statistics", "--output-format", "github", "a.py")
    assert out.startswith("::error file=a.py,line=1,")  # the annotations stay on stdout
    assert err.startswith("  1  GL000  syntax-error\n")  # the counts go to stderr
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    usage = re.search(r"\n  --statistics +(.*?)\n  --", readme, re.S).group(1)
    assert "github" in usage and "stderr" in usage, usage


# --- 6. JSON for a file name that is not UTF-8 ---------------------------------------------------------

@pytest.mark.skipif(sys.platform == "darwin", reason="APFS refuses names that are not UTF-8")
@pytest.mark.parametrize("output_format", ["json", "json-lines", "rdjson", "gitlab"])
def test_json_of_a_file_name_that_is_not_utf8_is_valid_and_names_the_file(here, capsys, output_format):
    raw = b"caf\xe9.py"
    with open(os.path.join(os.fsencode(here), raw), "w") as file:
        file.write(BAD)
    code, out, _ = check(capsys, "--output-format", output_format, ".")
    assert code == 1
    documents = [json.loads(line) for line in out.splitlines()] if output_format == "json-lines" else [json.loads(out)]
    strings = []

    def collect(value):
        if isinstance(value, str):
            strings.append(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                collect(key), collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)

    for document in documents:
        collect(document)
    for text in strings:
        text.encode("utf-8")  # no lone surrogate: UnicodeEncodeError otherwise
    # The name is readable and can be rebuilt, byte for byte.
    [name] = {text for text in strings if text.startswith("caf")}
    assert name == "caf\\xe9.py"
    assert re.sub(rb"\\x([89a-f][0-9a-f])", lambda m: bytes([int(m.group(1), 16)]), name.encode()) == raw


# --- 7. another file named from the current folder ------------------------------------------------------

HELPER = '''import torch.nn.functional as F


def embed(encoder, tokens):
    vectors = encoder(tokens)
    return F.normalize(vectors, dim=-1).detach()
'''



@pytest.fixture
def fresh_project():
    project.clear()
    yield
    project.clear()


def test_another_file_is_named_from_the_current_folder(here, capsys, monkeypatch, fresh_project):
    # pkg/main.py imports its sibling x.py; a top-level x.py exists too, so `at x.py` would
    # send the user to the wrong file.
    write(here, {"pyproject.toml": "", "x.py": "", "pkg/x.py": HELPER, "pkg/main.py": _main("from x import embed"),
                 "pkg/text/__init__.py": "", "pkg/text/helpers.py": HELPER,
                 "scripts/train.py": _main("from pkg.text.helpers import embed")})
    code, out, _ = check(capsys, "--output-format", "json", "--select", "GL001", "pkg/main.py", "scripts")
    found = {f["path"]: f for f in json.loads(out)}
    assert "(at pkg/x.py, line 6, inside `embed(…)` called here)" in found["pkg/main.py"]["message"]
    assert found["pkg/main.py"]["details"]["origin_path"] == "pkg/x.py"
    assert "(at pkg/text/helpers.py, line 6, inside" in found["scripts/train.py"]["message"]
    # From inside pkg, the same file is x.py, as the finding's own path is main.py.
    monkeypatch.chdir(here / "pkg")
    code, out, _ = check(capsys, "--output-format", "concise", "--select", "GL001", "main.py")
    assert out.startswith("main.py:12:") and "(at x.py, line 6, inside" in out
    # Named through `..`, the same.
    code, out, _ = check(capsys, "--output-format", "concise", "--select", "GL001", "../pkg/main.py")
    assert out.startswith("main.py:12:") and "(at x.py, line 6, inside" in out


def test_a_long_operand_is_quoted_by_what_it_calls_not_cut_mid_word():
    """`torch.nn.functional.layer_norm(model(x), normalized_shape=(1,)).mean(...).detach()` is
    too long to quote whole: the message keeps the call's name and drops its arguments, where
    it used to end in ``tor....detach()``."""
    from gradlint import engine

    source = (
        "import torch\nimport torch.nn as nn\n\nmodel = nn.Linear(4, 1)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "for step in range(3):\n"
        "    x = torch.randn(8, 4)\n"
        "    feats = torch.nn.functional.layer_norm(model(x), normalized_shape=(1,))"
        ".mean(dim=0, keepdim=True).detach()\n"
        "    loss = (feats ** 2).mean()\n"
        "    opt.zero_grad()\n    loss.backward()\n    opt.step()\n"
    )
    (finding,) = engine.lint_source(source, "train.py", project=False)
    assert "`torch.nn.functional.layer_norm(...).mean(...).detach()`" in finding.message
    assert "...." not in finding.message


def test_a_file_from_before_python_3_7_is_told_why_async_does_not_parse():
    """`images.cuda(async=True)`, PyTorch 0.3's spelling: `async` has been a keyword since Python
    3.7, and the GL000 says what the argument is called now."""
    from gradlint import engine

    (finding,) = engine.lint_source("import torch\nx = torch.ones(2)\ny = x.cuda(async=True)\n", "old.py",
                                    project=False)
    assert finding.code == "GL000" and finding.line == 3
    assert "non_blocking=True" in finding.message

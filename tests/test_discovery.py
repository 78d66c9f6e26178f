"""Which files ``gradlint check`` lints."""
from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from gradlint.discovery import DEFAULT_EXCLUDE, _matcher, _spec, discover, passed_by


def make(root: Path, *files: str) -> None:
    for name in files:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n")


def found(root: Path, *paths: str, **options) -> list[str]:
    files = discover([root / p for p in paths or ["."]], root=root, **options)
    return [path.relative_to(root).as_posix() for path in files]


def test_python_files_in_sorted_order(tmp_path):
    make(tmp_path, "b.py", "a.py", "pkg/z.py", "pkg/sub/y.py", "notes.txt", "stub.pyi")
    assert found(tmp_path) == ["a.py", "b.py", "pkg/sub/y.py", "pkg/z.py"]


def test_order_does_not_depend_on_argument_order(tmp_path):
    make(tmp_path, "a/x.py", "b/y.py")
    assert found(tmp_path, "b", "a") == found(tmp_path, "a", "b") == ["a/x.py", "b/y.py"]


def test_a_file_named_twice_is_linted_once(tmp_path):
    make(tmp_path, "a.py")
    assert found(tmp_path, ".", "a.py") == ["a.py"]


def test_a_file_reached_through_a_symlinked_folder_is_not_taken_for_its_namesake(tmp_path, monkeypatch):
    # `link/../x.py` is the x.py beside the link's target, not the one in the current folder.
    (tmp_path / "here").mkdir()
    (tmp_path / "other" / "deep").mkdir(parents=True)
    (tmp_path / "here" / "x.py").write_text("x = 1\n")
    (tmp_path / "other" / "x.py").write_text("y = 2\n")
    (tmp_path / "here" / "link").symlink_to(tmp_path / "other" / "deep")
    monkeypatch.chdir(tmp_path / "here")
    assert discover(["x.py", "link/../x.py"]) == [Path("link/../x.py"), Path("x.py")]
    assert discover(["x.py", "./x.py"]) == [Path("x.py")]


def test_paths_keep_the_spelling_of_the_argument(tmp_path, monkeypatch):
    make(tmp_path, "src/pkg/a.py")
    monkeypatch.chdir(tmp_path)
    assert discover(["src"]) == [Path("src/pkg/a.py")]
    assert discover(["."]) == [Path("src/pkg/a.py")]


@pytest.mark.parametrize("folder", [
    ".git", ".hg", "__pycache__", ".venv", "venv", ".tox", ".nox", ".mypy_cache",
    ".pytest_cache", ".ruff_cache", ".gradlint_cache", "build", "dist", "node_modules",
    "lib/python3.11/site-packages", "gradlint.egg-info",
])
def test_default_excludes(tmp_path, folder):
    make(tmp_path, "keep.py", f"{folder}/skip.py")
    assert found(tmp_path) == ["keep.py"]


def test_any_folder_with_pyvenv_cfg_is_a_virtualenv(tmp_path):
    make(tmp_path, "env/lib/site.py", "env2/lib/mod.py")
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    # ``env`` is skipped only because it is a virtualenv: a package called env2 is linted.
    assert found(tmp_path) == ["env2/lib/mod.py"]


def test_gitignore_at_the_root_and_nested(tmp_path):
    make(tmp_path, "a.py", "gen/out.py", "pkg/b.py", "pkg/secret.py", "pkg/keep_me.py", "scratch.py")
    (tmp_path / ".gitignore").write_text("gen/\nscratch.py\n")
    (tmp_path / "pkg" / ".gitignore").write_text("secret.py\n")
    assert found(tmp_path) == ["a.py", "pkg/b.py", "pkg/keep_me.py"]


def test_nested_gitignore_can_reinclude(tmp_path):
    make(tmp_path, "pkg/a_gen.py", "pkg/b_gen.py")
    (tmp_path / ".gitignore").write_text("*_gen.py\n")
    (tmp_path / "pkg" / ".gitignore").write_text("!b_gen.py\n")
    assert found(tmp_path) == ["pkg/b_gen.py"]


def test_gitignore_above_the_current_folder_counts_inside_a_repository(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("generated/\n")
    make(tmp_path, "sub/a.py", "sub/generated/b.py")
    files = discover([tmp_path / "sub"], root=tmp_path / "sub")
    assert [p.name for p in files] == ["a.py"]


def test_a_file_named_explicitly_is_linted_even_if_ignored(tmp_path):
    make(tmp_path, "scratch.py", "build/gen.py")
    (tmp_path / ".gitignore").write_text("scratch.py\n")
    assert found(tmp_path, "scratch.py") == ["scratch.py"]
    assert found(tmp_path, "build/gen.py") == ["build/gen.py"]


def test_exclude_replaces_the_defaults_and_extend_exclude_adds(tmp_path):
    make(tmp_path, "a.py", "build/b.py", "experiments/c.py", "pkg/experiments/d.py")
    assert found(tmp_path, exclude=["experiments/"]) == ["a.py", "build/b.py"]
    assert found(tmp_path, extend_exclude=["/experiments"]) == ["a.py", "pkg/experiments/d.py"]


def test_missing_path_raises(tmp_path):
    with pytest.raises(FileNotFoundError) as err:
        discover([tmp_path / "nope.py"], root=tmp_path)
    assert err.value.filename == str(tmp_path / "nope.py")


def test_a_missing_path_is_told_to_on_error_and_the_others_are_still_found(tmp_path):
    make(tmp_path, "a.py")
    errors = []
    assert found(tmp_path, "nope.py", "a.py", on_error=errors.append) == ["a.py"]
    assert errors == [f"{tmp_path / 'nope.py'}: no such file or directory"]


def test_a_symlink_loop_named_explicitly_says_so(tmp_path):
    (tmp_path / "loop.py").symlink_to(tmp_path / "loop.py")
    errors = []
    assert found(tmp_path, "loop.py", on_error=errors.append) == []
    assert errors == [f"{tmp_path / 'loop.py'}: too many levels of symbolic links"]


def test_what_is_not_a_regular_file_is_passed_by_in_a_folder(tmp_path):
    make(tmp_path, "train.py", "real/target.py")
    (tmp_path / ".#train.py").symlink_to(tmp_path / "gone.py")  # an Emacs lock file
    (tmp_path / "loop.py").symlink_to(tmp_path / "loop.py")
    (tmp_path / "link.py").symlink_to(tmp_path / "real" / "target.py")  # a real file: kept
    os.mkfifo(tmp_path / "pipe.py")  # reading it would wait forever
    errors = []
    # The link's target is found too: one file, linted once, by its own name.
    assert found(tmp_path, on_error=errors.append) == ["real/target.py", "train.py"]
    assert found(tmp_path, on_error=errors.append, exclude=["real/"]) == ["link.py", "train.py"]
    assert errors == []


@pytest.fixture
def locked(tmp_path, monkeypatch):
    """``locked/`` behaves as a folder with mode 000 does for a user who is not root: it can be
    seen, but not listed, and nothing inside it can be looked at."""
    make(tmp_path, "a.py", "locked/b.py")
    folder = tmp_path / "locked"
    real_stat, real_scandir = os.stat, os.scandir

    def denied(path):
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))

    def stat(path, *args, **kwargs):
        if Path(os.fspath(path)).parent == folder:
            raise denied(path)
        return real_stat(path, *args, **kwargs)

    def scandir(path="."):
        if Path(os.fspath(path)) == folder:
            raise denied(path)
        return real_scandir(path)

    monkeypatch.setattr(os, "stat", stat)
    monkeypatch.setattr(os, "scandir", scandir)
    return folder


def test_a_folder_that_cannot_be_listed_is_told_to_on_error(tmp_path, locked):
    errors = []
    assert found(tmp_path, on_error=errors.append) == ["a.py"]
    assert errors == [f"{locked}: cannot list: Permission denied"]


def test_without_on_error_a_folder_that_cannot_be_listed_raises(tmp_path, locked):
    with pytest.raises(PermissionError):
        found(tmp_path)


def test_a_folder_with_mode_000(tmp_path):
    make(tmp_path, "a.py", "locked/b.py")
    locked = tmp_path / "locked"
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip("this user may read any folder (root)")
        errors = []
        assert found(tmp_path, on_error=errors.append) == ["a.py"]
        assert errors == [f"{locked}: cannot list: Permission denied"]
    finally:
        locked.chmod(0o755)


@pytest.mark.parametrize("options", [{}, {"exclude": ["experiments/"]}, {"extend_exclude": ["/experiments"]}])
def test_passed_by_says_what_a_folder_search_leaves_out(tmp_path, options):
    """The editor's question, one file at a time, answered as ``discover`` answers it for a tree."""
    make(tmp_path, "a.py", "build/b.py", "experiments/c.py", "pkg/experiments/d.py", "gen/e.py",
         "pkg/secret.py", "env/lib/f.py", "pkg/deep/er/g.py")
    (tmp_path / ".gitignore").write_text("gen/\n")
    (tmp_path / "pkg" / ".gitignore").write_text("secret.py\n")
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    every = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.py"))
    kept = [name for name in every if not passed_by(tmp_path / name, root=tmp_path, **options)]
    assert kept == found(tmp_path, **options)
    assert len(kept) < len(every)  # the tree does exercise exclusion


def test_passed_by_judges_a_file_outside_the_root_from_its_own_folder(tmp_path):
    make(tmp_path, "root/a.py", "elsewhere/b.py", "elsewhere/build/c.py")
    assert not passed_by(tmp_path / "elsewhere" / "b.py", root=tmp_path / "root")
    assert passed_by(tmp_path / "elsewhere" / "build" / "c.py", root=tmp_path / "root")


@pytest.mark.parametrize("bad", ["\\", "[z-a].py", "!", "a/[9-0]/**"])
def test_a_gitignore_line_pathspec_rejects_is_skipped_as_git_skips_it(tmp_path, bad):
    make(tmp_path, "a.py", "scratch.py", "gen/b.py", "pkg/c.py", "pkg/secret.py")
    # The lines around the bad one still count, in order: the re-inclusion after it too.
    (tmp_path / ".gitignore").write_text(f"scratch.py\n{bad}\ngen/\n*.py\n!a.py\n")
    (tmp_path / "pkg" / ".gitignore").write_text(f"{bad}\n!c.py\n")
    assert found(tmp_path) == ["a.py", "pkg/c.py"]
    assert passed_by(tmp_path / "scratch.py", root=tmp_path)
    assert not passed_by(tmp_path / "pkg" / "c.py", root=tmp_path)
    assert found(tmp_path, "scratch.py", force_exclude=True) == []


@pytest.mark.parametrize("lines", [
    list(DEFAULT_EXCLUDE),
    ["build/", "/top.py", "a/**/b", "*.py[co]", "docs/*.md", "x?y", "\\#literal", "sp\\ ace"],
    ["*.py", "!keep.py", "build/"],  # re-includes: pathspec decides
    [],
])
def test_the_folded_matcher_answers_as_pathspec_does(lines):
    spec = _spec(lines)
    match = _matcher(spec)
    # A re-inclusion that names no path here makes the matcher try pattern by pattern.
    one_by_one = _matcher(_spec([*lines, "!/never/a/path/here"]))
    for path in ["a.py", "build/", "build", "src/build/x.py", "top.py", "src/top.py", "a/b", "a/c/d/b/",
                 "m.pyc", "docs/x.md", "docs/sub/x.md", "xzy", "#literal", "sp ace", "keep.py",
                 "x.egg-info/", "pkg/.venv/", "./build/", "/abs/build", ".", "./", "", "build/x.py"]:
        assert match(path) == one_by_one(path), path
        if "/" not in path.strip("./"):  # an entry of the top folder: no folder above it to match
            assert match(path) == spec.check_file(path).include, path


def test_a_folder_pattern_names_the_folder_not_what_is_under_it():
    # The walk skips an excluded folder once; what is under it is never asked about, except
    # under a folder named on the command line, which is linted with all it holds.
    for lines in (["build/"], ["build/", "!keep.py"]):
        match = _matcher(_spec(lines))
        assert match("build/") is True and match("src/build/") is True
        assert match("build/x.py") is None and match("src/build/x.py") is None
    match = _matcher(_spec(["a/**"]))
    assert match("a/") is None and match("a/x.py") is True and match("a/b/") is True


@pytest.mark.parametrize("line", [
    *DEFAULT_EXCLUDE, "build/", "*.py", "foo*", "a*b", ".*", "*/x", "x-y.z", "f*o*o", ".venv/", "A.B",
    ".", "..", "...", "-", "+", "_", "a.", "*a", "a*/", "*.egg-info/", "**", "a**", "*", "*/",
    "é", "a b", "#x", "!x", "a/b", "/a", "x\\", "[ab]", "a?",
])
def test_a_plain_name_line_gets_the_regex_pathspec_would_make(line):
    import re

    from pathspec import GitIgnoreSpec

    from gradlint.discovery import _NAME_LINE, _entry_regex, _name_regex

    if not re.fullmatch(_NAME_LINE, line, re.ASCII):
        assert line in ("**", "a**", "*", "*/", "é", "a b", "#x", "!x", "a/b", "/a", "x\\", "[ab]", "a?", "*/x")
        return
    (pattern,) = GitIgnoreSpec.from_lines([line]).patterns
    assert pattern.include is True
    assert _name_regex(line) == _entry_regex(pattern.regex.pattern).replace("(?P<ps_d>/$)", "(?:/$)")


def test_a_folder_nested_a_thousand_deep_is_walked(tmp_path):
    # Made and removed one level at a time: os.makedirs and shutil.rmtree (pytest's clean-up of
    # old temporary folders) recurse once per level.
    folders = [str(tmp_path)]
    for _ in range(1000):
        folders.append(os.path.join(folders[-1], "d"))
        os.mkdir(folders[-1])
    Path(folders[-1], "x.py").write_text("x = 1\n")
    (tmp_path / "top.py").write_text("y = 2\n")
    try:
        assert sorted(p.name for p in discover([tmp_path], root=tmp_path)) == ["top.py", "x.py"]
    finally:
        os.remove(os.path.join(folders[-1], "x.py"))
        for folder in reversed(folders[1:]):
            os.rmdir(folder)

"""Imports between the project's own files (gradlint/analysis/project.py): where an import leads,
what an imported function or class does at its call site, that findings stay in the linted file,
and that the cache reuses a file's findings only while the files it imports are unchanged."""
from __future__ import annotations

import ast
import json
import os
import time
from pathlib import Path

import pytest

from gradlint import cli, engine
from gradlint.analysis import project
from gradlint.analysis.facts import module_facts

ROOT = Path(__file__).resolve().parent.parent

HELPER = '''import torch.nn.functional as F


def embed(encoder, tokens):
    vectors = encoder(tokens)
    return F.normalize(vectors, dim=-1).detach()
'''

ATTACHED_HELPER = '''import torch.nn.functional as F


def embed(encoder, tokens):
    vectors = encoder(tokens)
    return F.normalize(vectors, dim=-1)
'''


def _main(imports: str, call: str = "embed(encoder, tokens)") -> str:
    return f'''import torch
import torch.nn as nn
import torch.nn.functional as F
{imports}

encoder = nn.EmbeddingBag(100, 16)
classifier = nn.Linear(16, 2)
optimizer = torch.optim.Adam([*encoder.parameters(), *classifier.parameters()])
tokens = torch.randint(0, 100, (32, 10))
labels = torch.randint(0, 2, (32,))
for epoch in range(3):
    logits = classifier({call})
    loss = F.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
'''


CALL_LINE = 12  # the line of the helper's call in _main's program


@pytest.fixture(autouse=True)
def _fresh():
    project.clear()
    yield
    project.clear()


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def lint(path: Path, root: Path | None = None):
    return engine.lint_source(path.read_bytes(), str(path), project=str(root) if root else None)


def gl001(path: Path, root: Path | None = None):
    return [(f.line, f.message) for f in lint(path, root) if f.code == "GL001"]


def callee(path: Path, qualname: str, root: Path | None = None):
    text = path.read_text()
    facts = module_facts(ast.parse(text), text, project=project.for_file(str(path), root), path=str(path))
    return facts.callee(qualname)


# ---- resolution -----------------------------------------------------------------------------


def test_from_import_of_a_sibling_module(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, {"helpers.py": HELPER, "main.py": _main("from helpers import embed")})
    found = gl001(tmp_path / "main.py")
    assert [line for line, _ in found] == [CALL_LINE]
    assert "helpers.py, line 6" in found[0][1]


def test_a_module_created_after_a_lint_is_followed_by_the_next_lint(tmp_path):
    # An editor's server lints again after the user creates the module an import names, in a
    # folder without __init__.py: where imports lead is remembered, but not past a change.
    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, {"main.py": _main("from pkg.later import embed"), "pkg/other.py": ""})
    assert gl001(tmp_path / "main.py") == []
    write(tmp_path, {"pkg/later.py": HELPER})
    assert [line for line, _ in gl001(tmp_path / "main.py")] == [CALL_LINE]
    (tmp_path / "pkg" / "later.py").unlink()
    assert gl001(tmp_path / "main.py") == []


@pytest.mark.parametrize("created", ["helpers.py", "helpers/__init__.py"])
def test_a_module_whose_first_name_was_nowhere_is_followed_once_created(tmp_path, created):
    # (an import whose first name no folder searched holds is answered from the folders'
    # entries: creating the module there must still be seen by the next lint)
    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, {"main.py": _main("from helpers import embed")})
    assert gl001(tmp_path / "main.py") == []
    write(tmp_path, {created: HELPER})
    assert [line for line, _ in gl001(tmp_path / "main.py")] == [CALL_LINE]


def test_import_of_a_module_and_an_attribute_call(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, {"helpers.py": HELPER,
                     "main.py": _main("import helpers as h", call="h.embed(encoder, tokens)")})
    assert [line for line, _ in gl001(tmp_path / "main.py")] == [CALL_LINE]


def test_absolute_import_from_a_package_module_under_the_root(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, {"pkg/__init__.py": "", "pkg/text/__init__.py": "", "pkg/text/helpers.py": HELPER,
                     "scripts/train.py": _main("from pkg.text.helpers import embed")})
    found = gl001(tmp_path / "scripts" / "train.py")
    assert [line for line, _ in found] == [CALL_LINE]
    assert "../pkg/text/helpers.py, line 6" in found[0][1]  # from the linted file's folder (gradlint check names it from the current one)


def test_relative_imports(tmp_path):
    (tmp_path / "setup.py").write_text("")
    write(tmp_path, {"pkg/__init__.py": "", "pkg/helpers.py": HELPER,
                     "pkg/a.py": _main("from .helpers import embed"),
                     "pkg/b.py": _main("from . import helpers", call="helpers.embed(encoder, tokens)"),
                     "pkg/sub/__init__.py": "",
                     "pkg/sub/c.py": _main("from ..helpers import embed")})
    for name in ("a.py", "b.py", "sub/c.py"):
        assert [line for line, _ in gl001(tmp_path / "pkg" / name)] == [CALL_LINE], name


def test_a_package_init_and_what_it_re_exports(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, {"textlib/__init__.py": "from .core import embed\n", "textlib/core.py": HELPER,
                     "defs/__init__.py": HELPER,
                     "a.py": _main("from textlib import embed"),
                     "b.py": _main("from defs import embed")})
    assert [line for line, _ in gl001(tmp_path / "a.py")] == [CALL_LINE]
    assert [line for line, _ in gl001(tmp_path / "b.py")] == [CALL_LINE]


def test_the_script_folder_comes_first(tmp_path):
    """``python scripts/train.py`` imports ``helpers`` from scripts/ (sys.path[0]), not the root's."""
    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, {"helpers.py": ATTACHED_HELPER, "scripts/helpers.py": HELPER,
                     "scripts/train.py": _main("from helpers import embed"), "train.py": _main("from helpers import embed")})
    assert [line for line, _ in gl001(tmp_path / "scripts" / "train.py")] == [CALL_LINE]
    assert gl001(tmp_path / "train.py") == []


def test_nothing_outside_the_project_is_read(tmp_path):
    """A module beside the project, or in a site-packages folder inside it, is not the project's."""
    outside = tmp_path / "outside"
    proj = tmp_path / "proj"
    write(outside, {"helpers.py": HELPER})
    write(proj, {"pyproject.toml": "", "main.py": _main("from helpers import embed"),
                 "lib/site-packages/helpers.py": HELPER, "lib/site-packages/sitemain.py": _main("from helpers import embed")})
    assert gl001(proj / "main.py") == []
    assert callee(proj / "main.py", "helpers.embed") is None
    view = project.for_file(str(proj / "main.py")).view(str(proj / "main.py"), _imports("from ..outside.helpers import embed"))
    assert view.locate(2, "outside.helpers.embed") is None  # above the root
    sitemain = proj / "lib" / "site-packages" / "sitemain.py"
    assert callee(sitemain, "helpers.embed", root=proj) is None


def _imports(text: str):
    from gradlint.analysis.imports import collect_imports

    return collect_imports(ast.parse(text))


def test_torch_and_other_installed_packages_are_never_followed(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, {"main.py": _main("from helpers import embed")})
    view = project.for_file(str(tmp_path / "main.py")).view(str(tmp_path / "main.py"), _imports("import torch"))
    assert view.locate(0, "torch.nn.functional.normalize") is None
    assert view.class_for("torch.nn.Linear") is None and view.dependencies() == {}


def test_an_import_cycle_is_read_a_bounded_depth_and_never_loops(tmp_path):
    """a imports b, b imports a: each is read at a depth one less than its importer, so the
    chain ends; linting either gives its own finding, whichever was linted first."""
    (tmp_path / "pyproject.toml").write_text("")
    b = HELPER + "\nfrom a import train\n"
    a = "from b import embed\n\n\ndef train():\n    pass\n" + _main("")
    write(tmp_path, {"a.py": a, "b.py": b})
    first = gl001(tmp_path / "a.py"), gl001(tmp_path / "b.py")
    project.clear()
    second = gl001(tmp_path / "b.py"), gl001(tmp_path / "a.py")
    assert first == second[::-1]
    assert [line for line, _ in first[0]] == [CALL_LINE + 5]


def test_a_module_that_imports_itself_gives_no_summary(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, {"main.py": HELPER + "from main import embed\n"})
    assert callee(tmp_path / "main.py", "embed") is not None  # its own function, from its own walk
    assert callee(tmp_path / "main.py", "main.embed") is None


@pytest.mark.parametrize("broken", ["def embed(:\n", b"\xff\xfe\x00garbage\x00", None])
def test_an_unreadable_or_broken_module_gives_no_summary_and_no_error(tmp_path, broken):
    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, {"main.py": _main("from helpers import embed")})
    if isinstance(broken, str):
        (tmp_path / "helpers.py").write_text(broken)
    elif isinstance(broken, bytes):
        (tmp_path / "helpers.py").write_bytes(broken)
    else:
        (tmp_path / "helpers.py").mkdir()  # a folder where the module would be
    assert gl001(tmp_path / "main.py") == []


def test_a_module_imported_by_many_is_summarized_once(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, {"helpers.py": HELPER, **{f"m{i}.py": _main("from helpers import embed") for i in range(5)}})
    read = []
    real = project._read
    monkeypatch.setattr(project, "_read", lambda path, *rest: read.append(path) or real(path, *rest))
    for i in range(5):
        assert [line for line, _ in gl001(tmp_path / f"m{i}.py")] == [CALL_LINE]
    assert read == [tmp_path / "helpers.py"]
    (tmp_path / "helpers.py").write_text(ATTACHED_HELPER)  # changed bytes: read again, once
    assert gl001(tmp_path / "m0.py") == [] and gl001(tmp_path / "m1.py") == []
    assert read == [tmp_path / "helpers.py"] * 2


def test_standard_input_resolves_from_the_stdin_filename_folder_only(tmp_path, capsys, monkeypatch):
    import io
    import sys

    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, {"helpers.py": HELPER})
    text = _main("from helpers import embed")
    monkeypatch.chdir(tmp_path)

    def run(*args):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
        cli.main(["check", "--no-cache", "--output-format", "concise", *args])
        return capsys.readouterr().out

    assert f"main.py:{CALL_LINE}:" in run("--stdin-filename", str(tmp_path / "main.py"), "-")
    assert "GL001" not in run("-")


def test_the_flake8_plugin_resolves_too(tmp_path):
    from gradlint.flake8_plugin import Plugin

    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, {"helpers.py": HELPER, "main.py": _main("from helpers import embed")})
    lines = (tmp_path / "main.py").read_text().splitlines(keepends=True)
    found = list(Plugin(None, lines, str(tmp_path / "main.py")).run())
    assert [(line, message[:5]) for line, _, message, _ in found] == [(CALL_LINE, "GL001")]


# ---- the cache ------------------------------------------------------------------------------


def _check(capsys, *args):
    code = cli.main(["check", "--output-format", "concise", *args])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_warm_run_follows_a_change_of_an_imported_file_only(tmp_path, capsys, monkeypatch, jobs):
    """Only helpers.py changes: main.py's finding appears and disappears with it, on warm runs
    that lint main.py again (its bytes are the same) and nothing else."""
    from gradlint import parallel

    monkeypatch.setattr(parallel, "POOL_MIN", 2)
    proj = tmp_path / "proj"
    write(proj, {"pyproject.toml": "", "helpers.py": ATTACHED_HELPER, "main.py": _main("from helpers import embed"),
                 "other.py": "import torch\nx = torch.ones(3)\n"})
    monkeypatch.chdir(proj)
    linted: list[str] = []
    real = engine.lint_source
    monkeypatch.setattr(engine, "lint_source", lambda source, path, codes=None, **kw: linted.append(os.path.basename(path)) or real(source, path, codes, **kw))
    args = ["-j", jobs, "--cache-dir", str(tmp_path / "cache"), "."]
    assert _check(capsys, *args) == (0, "")
    assert sorted(linted) == ["helpers.py", "main.py", "other.py"] or jobs != "1"
    linted.clear()
    assert _check(capsys, *args) == (0, "")
    assert linted == []  # warm: nothing linted
    (proj / "helpers.py").write_text(HELPER)
    code, out = _check(capsys, *args)
    assert code == 1 and f"main.py:{CALL_LINE}:" in out and "helpers.py, line 6" in out
    assert jobs != "1" or sorted(linted) == ["helpers.py", "main.py"]
    linted.clear()
    assert _check(capsys, *args)[0] == 1 and linted == []
    (proj / "helpers.py").write_text(ATTACHED_HELPER)
    assert _check(capsys, *args) == (0, "")
    entries = {e["path"]: e for pack in (tmp_path / "cache").glob("*/*.json")
               for e in json.loads(pack.read_bytes())["entries"].values()}
    assert set(entries[str(proj / "main.py")]["deps"]) == {str(proj / "helpers.py")}
    assert entries[str(proj / "other.py")]["deps"] == {}


# ---- the folder fixtures ---------------------------------------------------------------------


def _fixture(capsys, monkeypatch, rel):
    monkeypatch.chdir(ROOT)
    cli.main(["check", "--no-cache", "--output-format", "concise", rel])
    return capsys.readouterr().out.splitlines()


def test_the_helper_module_fixture_is_reported_at_the_call(capsys, monkeypatch):
    out = _fixture(capsys, monkeypatch, "fixtures/GL001/bad_helper_module_detaches")
    main = (ROOT / "fixtures/GL001/bad_helper_module_detaches/main.py").read_text().splitlines()
    assert len(out) == 1
    path, line = out[0].split(":")[:2]
    assert path.endswith("bad_helper_module_detaches/main.py")
    assert "sentence_embedding(encoder, tokens)" in main[int(line) - 1]
    assert "helpers.py, line 19" in out[0]
    helpers = (ROOT / "fixtures/GL001/bad_helper_module_detaches/helpers.py").read_text().splitlines()
    assert ".detach()" in helpers[18]


def test_the_imported_softplus_head_is_clean(capsys, monkeypatch):
    assert _fixture(capsys, monkeypatch, "fixtures/GL005/good_imported_block_ends_in_softplus") == []


def test_the_imported_exp_head_is_reported_at_the_edit(capsys, monkeypatch):
    out = _fixture(capsys, monkeypatch, "fixtures/GL005/bad_imported_block_ends_in_exp")
    main = (ROOT / "fixtures/GL005/bad_imported_block_ends_in_exp/main.py").read_text().splitlines()
    assert len(out) == 1 and " GL005 " in out[0]
    assert main[int(out[0].split(":")[1]) - 1].strip() == "std[:, 0] = 1.0"
    assert "`torch.exp` (fixtures/GL005/bad_imported_block_ends_in_exp/blocks.py, line 15)" in out[0]


HEAD = '''import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.mean = nn.Linear(4, 2)
        self.log_std = nn.Linear(4, 2)

    def forward(self, h):
        return self.mean(h), torch.exp(self.log_std(h))
'''


@pytest.mark.parametrize("edited, reported", [("std", True), ("mean", False)])
@pytest.mark.parametrize("where", ["same file", "imported"])
def test_each_unpacked_element_of_a_returned_tuple_keeps_its_own_save(tmp_path, edited, reported, where):
    """``mean, std = head(h)``: exp saved ``std``, nothing saved ``mean`` (Linear saves its input)."""
    (tmp_path / "pyproject.toml").write_text("")
    body = (f"head = Head()\nx = torch.randn(8, 4)\nmean, std = head(x)\n{edited}[:, 0] = 1.0\n"
            "(mean + std).sum().backward()\n")
    if where == "same file":
        write(tmp_path, {"main.py": HEAD + "\n\n" + body})
    else:
        write(tmp_path, {"blocks.py": HEAD, "main.py": "import torch\nfrom blocks import Head\n\n" + body})
    found = [f for f in lint(tmp_path / "main.py") if f.code == "GL005"]
    assert bool(found) == reported
    if reported and where == "imported":
        assert "(blocks.py, line 12)" in found[0].message


# ---- what a process keeps -------------------------------------------------------------------


def test_the_files_kept_between_lints_are_bounded_by_their_bytes_not_their_number(tmp_path, monkeypatch):
    """Ten scripts, each importing a helper of its own padded to some 3 KB: once a lint starts,
    what the earlier lints parsed stays within ``KEEP_BYTES`` (a bound in files kept all ten),
    and each script still gets its finding."""
    monkeypatch.setattr(project, "KEEP_BYTES", 8_000)
    (tmp_path / "pyproject.toml").write_text("")
    padding = "".join(f"CONSTANT_{i} = {i}\n" for i in range(200))
    files = {}
    for k in range(10):
        files[f"helpers_{k}.py"] = HELPER + padding
        files[f"main_{k}.py"] = _main(f"from helpers_{k} import embed")
    write(tmp_path, files)
    size = len((tmp_path / "helpers_0.py").read_bytes())
    assert size > 3_000
    for k in range(10):
        assert [line for line, _ in gl001(tmp_path / f"main_{k}.py")] == [CALL_LINE]
        # the next lint's start forgets what is past the bound; this lint's helper may stay
        project._begin(str(tmp_path / "next.py"))
        assert project._kept() <= project.KEEP_BYTES
        assert 1 <= len(project._PARSED) <= project.KEEP_BYTES // size


def test_a_summarys_nodes_are_told_from_another_files_without_a_set_kept_per_tree(tmp_path):
    """``_owned`` finds a node of the tree by its position (a decorator's too, before the
    ``def``'s line; one in an f-string), not one of another parse of the same text, and keeps
    nothing on the tree (a set of every node's id per kept file was a sixth of the memory)."""
    text = ("import functools\n\n\n@functools.lru_cache(maxsize=len('ab'))\n"
            "def f(x):\n    return f'{x.detach()!r}' + str([y for y in x])\n")
    tree, other = ast.parse(text), ast.parse(text)
    for mine, theirs in zip(ast.walk(tree), ast.walk(other)):
        if isinstance(mine, (ast.expr, ast.stmt)):
            assert project._owned(mine, tree)
            assert not project._owned(theirs, tree)
    assert not hasattr(tree, "_gradlint_ids")
    # A lint whose import was summarized leaves no such set on the tree kept.
    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, {"helpers.py": HELPER, "main.py": _main("from helpers import embed")})
    assert [line for line, _ in gl001(tmp_path / "main.py")] == [CALL_LINE]
    kept = project._PARSED[str(tmp_path / "helpers.py")]
    assert kept.registered and not hasattr(kept.tree, "_gradlint_ids")


def test_where_imports_lead_is_remembered_as_strings_and_bounded(tmp_path, monkeypatch):
    """``_LOCATED`` keeps the folders it stamps as strings (a Path keeps its parts besides),
    and at most ``LOCATED_MAX`` entries."""
    monkeypatch.setattr(project, "LOCATED_MAX", 3)
    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, {"helpers.py": HELPER, "main.py": _main("from helpers import embed")})
    view = project.for_file(str(tmp_path / "main.py")).view(str(tmp_path / "main.py"), _imports("import torch"))
    for dotted in ("helpers", "torch", "numpy.linalg", "a.b.c", "d"):
        view.locate(0, dotted)
        assert len(project._LOCATED) <= 3
    assert project._LOCATED
    for stamp, folders, found, real in project._LOCATED.values():
        assert folders and all(type(folder) is str for folder in folders)


def test_the_runner_holds_few_bytes_of_files_for_the_linter():
    """The sources held from the cache's lookup stay in memory all run, in the parent and in
    every worker forked from it: a bound the size of a corpus made every process grow with it."""
    from gradlint import runner

    assert runner.HELD_BYTES <= 8 * 2**20


def test_a_files_findings_do_not_depend_on_the_other_paths_linted(tmp_path, capsys, monkeypatch):
    """`check corpus/` and `check corpus/repo/` resolve the repository's imports in the
    repository (its nearest marked folder), not in the unmarked folder the paths share."""
    from gradlint import cli

    repo = tmp_path / "corpus" / "repo"
    write(repo, {"setup.py": "", "pkg/__init__.py": "", "pkg/helpers.py": HELPER,
                 "scripts/train.py": _main("from pkg.helpers import embed")})
    write(tmp_path / "corpus" / "other", {"pyproject.toml": "", "main.py": "x = 1\n"})
    monkeypatch.chdir(tmp_path)
    lines = []
    for target in ("corpus/repo", "corpus", "corpus/repo/scripts/train.py"):
        project.clear()
        cli.main(["check", "--no-cache", "--output-format", "concise", target])
        lines.append([line for line in capsys.readouterr().out.splitlines() if "GL001" in line])
    assert lines[0] and lines[0] == lines[1] == lines[2], lines


def test_an_imported_file_rewritten_at_once_with_the_same_size_is_read_again(tmp_path, monkeypatch):
    # Between two lints of one process (an editor's), a quick rewrite of the same size can keep
    # the file's size, times and inode: its times are one tick of the file system's clock,
    # which the stat below holds still. A file changed that recently is hashed again.
    (tmp_path / "pyproject.toml").write_text("")
    clean = HELPER.replace(".detach()", ".clone() ")
    assert len(clean) == len(HELPER) and clean != HELPER
    write(tmp_path, {"helpers.py": clean, "main.py": _main("from helpers import embed")})
    tick, real_stat = time.time_ns(), os.stat

    class Still:
        def __init__(self, info):
            self.info = info

        def __getattr__(self, name):
            return tick if name in ("st_mtime_ns", "st_ctime_ns") else getattr(self.info, name)

    monkeypatch.setattr(project.os, "stat", lambda path, *a, **k: Still(real_stat(path, *a, **k))
                        if str(path).endswith("helpers.py") else real_stat(path, *a, **k))
    assert gl001(tmp_path / "main.py") == []
    write(tmp_path, {"helpers.py": HELPER})
    assert [line for line, _ in gl001(tmp_path / "main.py")] == [CALL_LINE]


# ---- callers in the project's other files ----------------------------------------------------

NORMALIZE = """import torch


def unit(x, model):
    v = model(x).clone()
    v /= v.norm()
    return v
"""
EVAL_ONLY = """import torch
import torch.nn as nn

import features

model = nn.Linear(4, 4)


@torch.no_grad()
def bank(xs):
    return torch.stack([features.unit(x, model) for x in xs])
"""
TRAINS_THROUGH = EVAL_ONLY + """

loss = features.unit(torch.randn(2, 4), model).sum()
loss.backward()
"""


def test_an_edit_in_a_helper_every_caller_elsewhere_runs_under_no_grad_is_no_finding_and_the_callers_are_dependencies(
        tmp_path, capsys, monkeypatch):
    """features.py's `unit` edits what `.norm()` saved, but its one caller, in eval.py, runs it
    under `@torch.no_grad()`: nothing is recorded, nothing can fail. A warm run after eval.py
    also trains through it finds the edit: the callers read are the finding's dependencies."""
    proj = tmp_path / "proj"
    write(proj, {"pyproject.toml": "", "features.py": NORMALIZE, "eval.py": EVAL_ONLY})
    monkeypatch.chdir(proj)
    args = ["--cache-dir", str(tmp_path / "cache"), "."]
    assert _check(capsys, *args) == (0, "")
    entries = {e["path"]: e for pack in (tmp_path / "cache").glob("*/*.json")
               for e in json.loads(pack.read_bytes())["entries"].values()}
    assert set(entries[str(proj / "features.py")]["deps"]) == {str(proj / "eval.py")}
    (proj / "eval.py").write_text(TRAINS_THROUGH)
    code, out = _check(capsys, *args)
    assert code == 1 and "features.py:6:" in out and "GL005" in out


def test_a_helper_no_file_calls_keeps_its_finding(tmp_path, capsys, monkeypatch):
    """No caller anywhere (a library function): nothing says it runs under no_grad."""
    proj = tmp_path / "proj"
    write(proj, {"pyproject.toml": "", "features.py": NORMALIZE, "eval.py": "import features\n"})
    monkeypatch.chdir(proj)
    code, out = _check(capsys, "--no-cache", ".")
    assert code == 1 and "features.py:6:" in out

"""Jupyter notebooks: IPython syntax masked line for line, findings placed in their cells
(``nb.ipynb:cell 3:4:5``), every output format, suppressions, broken notebooks and cells,
other kernels, discovery, and the dynamic pass's verdict.

The notebooks under ``fixtures/notebooks/`` are the end-to-end cases; smaller ones are built in
``tmp_path`` by ``notebook_json``.
"""
from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest

from gradlint import cli, lint_paths, notebook
from gradlint.discovery import discover

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "fixtures" / "notebooks"
TRAINING = "fixtures/notebooks/bad_training_loop.ipynb"  # GL001 at cell 3, line 2, column 12
CROSS_CELL = "fixtures/notebooks/bad_cross_cell_inplace.ipynb"  # GL005 in cell 3, saved in cell 1


def notebook_json(*cells, language: str | None = "python") -> str:
    """An nbformat 4 notebook: each cell is a code cell's source, or ("markdown", text)."""
    out = []
    for cell in cells:
        kind, source = cell if isinstance(cell, tuple) else ("code", cell)
        entry = {"cell_type": kind, "metadata": {}, "source": source.splitlines(keepends=True)}
        if kind == "code":
            entry.update(execution_count=None, outputs=[])
        out.append(entry)
    metadata = {} if language is None else {
        "kernelspec": {"display_name": language, "language": language, "name": language},
        "language_info": {"name": language}}
    return json.dumps({"cells": out, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5})


def check(capsys, *args) -> tuple[int, str, str]:
    capsys.readouterr()
    status = cli.main(["check", *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return status, out, err


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


# ---- masking ------------------------------------------------------------------------------------

MASKED = [
    ("%matplotlib inline", "pass"),
    ("!pip install -q torch", "pass"),
    ("files = !ls *.ckpt", "pass"),
    ("a, b = !echo 1 2", "pass"),
    ("t = %timeit -o f()", "pass"),
    ("%time loss = step()", "pass"),
    ("%%time", "pass"),  # a cell magic after the first line: IPython rejects it, we mask it
    ("model?", "pass"),
    ("torch.nn.Linear??", "pass"),
    ("??model", "pass"),
    ("np.*load*?", "pass"),
    ("from __future__ import annotations", "pass"),  # only valid at the top of one module
    ("/print x", "pass"),  # autocall
    (",greet a b", "pass"),
]


@pytest.mark.parametrize("line, masked", MASKED, ids=[m[0] for m in MASKED])
def test_each_ipython_form_is_masked(line, masked):
    assert notebook.mask(["x = 1", line, "y = 2"]) == ["x = 1", masked, "y = 2"]


def test_a_masked_line_keeps_its_indentation_so_the_block_stays_valid():
    cell = ["for step in range(3):", "    !nvidia-smi", "    if step:", "        %time f()"]
    masked = notebook.mask(cell)
    assert masked == ["for step in range(3):", "    pass", "    if step:", "        pass"]
    ast.parse("\n".join(masked))


def test_a_shell_escape_continued_with_backslashes_is_masked_whole():
    # IPython joins `!cmd \` and its indented continuation lines into one shell command
    cell = ["!python extract.py \\", "    --root $ROOT \\", "    --n 3", "loss = f(x)"]
    masked = notebook.mask(cell)
    assert masked == ["pass", "", "", "loss = f(x)"]
    ast.parse("\n".join(masked))


PYTHON = [
    ["ok = (a", "      != b)"],  # a continuation line, not a shell escape
    ["r = (n", "     % 3)"],  # the modulo operator
    ["x = 1 + \\", "    %y"],  # nonsense, but after a backslash it is no magic's line
    ['doc = """', "!important: not a shell command", '"""'],
    ["text = '''", "%d items", "'''  # closed here"],
    ["question = x  # why?"],
    ["time = 3"],
    ["ls"],
    ["cond = a if b else c"],
    ["d['k'] = 5 % 2"],
]


@pytest.mark.parametrize("cell", PYTHON, ids=[" / ".join(c) for c in PYTHON])
def test_python_is_left_alone(cell):
    assert notebook.mask(cell) == cell
    assert notebook.mask(cell, automagic=True) == cell


def test_a_python_cell_magic_loses_its_first_line_only():
    cell = ["", "%%time", "for i in range(2):", "    loss = f(i)"]
    assert notebook.mask(cell) == ["", "pass", "for i in range(2):", "    loss = f(i)"]


@pytest.mark.parametrize("magic", ["%%bash", "%%writefile config.py", "%%html", "%%javascript", "%%"])
def test_a_cell_magic_of_another_language_blanks_the_cell(magic):
    assert notebook.mask([magic, "echo hi", "x = 1"]) == ["", "", ""]


def test_automagic_lines_are_masked_only_in_a_cell_that_does_not_parse_otherwise(tmp_path):
    book = notebook.read(notebook_json("pip install torch\nimport torch\nx = torch.ones(2)",
                                       "time = 3\nls = 4"))
    assert book.unparsable == []
    assert book.text.splitlines() == ["pass", "import torch", "x = torch.ones(2)", "time = 3", "ls = 4"]


def test_a_cell_whose_first_line_is_indented_is_read_as_ipython_runs_it():
    # (IPython takes the first line's indent off every line that starts with it)
    book = notebook.read(notebook_json(" pairs = [(a, b)\n            for a, b in zip(x, y)]\n print(pairs)",
                                       "  if x:\n    y = 1\n  ok = 2\nz = 3"))
    assert book.unparsable == []
    assert book.text.splitlines() == ["pairs = [(a, b)", "           for a, b in zip(x, y)]", "print(pairs)",
                                      "if x:", "  y = 1", "ok = 2", "z = 3"]
    still = notebook.read(notebook_json("x = 1\n  y = 2"))  # (only the first line's indent is taken)
    assert [row[0] for row in still.unparsable] == [1]


# ---- reading a notebook -------------------------------------------------------------------------


def test_cells_are_numbered_among_all_cells_and_lines_map_back_one_to_one():
    book = notebook.read(notebook_json(
        ("markdown", "# title"), "import torch\n%matplotlib inline", ("markdown", "text"), "",
        "x = 1\ny = 2\n", ("raw", "not code")))
    assert book.text == "import torch\npass\nx = 1\ny = 2\n"
    assert [book.locate(n) for n in range(1, 5)] == [(2, 1), (2, 2), (5, 1), (5, 2)]
    assert book.locate(5) == (5, 2)  # the parser's end-of-file position: the last line
    assert book.cells == {2: "import torch\n%matplotlib inline", 5: "x = 1\ny = 2\n"}


def test_a_source_given_as_one_string_reads_as_a_list_does():
    as_list = json.loads(notebook_json("a = 1\nb = 2"))
    as_string = json.loads(notebook_json("a = 1\nb = 2"))
    as_string["cells"][0]["source"] = "a = 1\nb = 2"
    assert notebook.read(json.dumps(as_list)).text == notebook.read(json.dumps(as_string)).text == "a = 1\nb = 2\n"


@pytest.mark.parametrize("text, reason", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "not a Jupyter notebook"),
    ('{"cells": [{"cell_type": "code", "source": 3}]}', "cell 1 has a source that is not text"),
    ('{"worksheets": [], "nbformat": 3}', "an nbformat 3 notebook; open and save it in Jupyter"),
])
def test_what_is_not_a_notebook_says_why(text, reason):
    with pytest.raises(notebook.NotANotebook, match=reason):
        notebook.read(text)


# ---- through the command line -------------------------------------------------------------------


def test_concise_names_the_cell_as_ruff_does(capsys, at_root):
    status, out, _ = check(capsys, "--output-format", "concise", TRAINING)
    assert status == 1
    assert out == (f"{TRAINING}:cell 3:2:12: GL001 the result of `(gain * inputs).detach()` is "
                   "returned from `scaled()`, so `gain` gets no gradient through it\n")


def test_json_and_json_lines_carry_the_cell(capsys, at_root):
    _, out, _ = check(capsys, "--output-format", "json", TRAINING, CROSS_CELL)
    by_code = {f["code"]: f for f in json.loads(out)}
    assert {k: by_code["GL001"][k] for k in ("cell", "line", "column", "end_line", "end_column")} == \
        {"cell": 3, "line": 2, "column": 12, "end_line": 2, "end_column": 36}
    assert (by_code["GL005"]["cell"], by_code["GL005"]["line"]) == (3, 1)
    assert by_code["GL005"]["details"]["save0_cell"] == 1 and by_code["GL005"]["details"]["save0_line"] == 5
    _, lines, _ = check(capsys, "--output-format", "json-lines", TRAINING)
    assert [(f["cell"], f["line"]) for f in map(json.loads, lines.splitlines())] == [(3, 2)]


def test_a_python_file_has_no_cell_in_json(capsys, project):
    (project / "a.py").write_text("def f(:\n")
    _, out, _ = check(capsys, "--output-format", "json", "a.py")
    assert "cell" not in json.loads(out)[0]


def test_a_message_names_another_cell_with_its_number_and_the_same_cell_without(capsys, at_root, project):
    _, out, _ = check(capsys, "--output-format", "concise", str(ROOT / CROSS_CELL))
    assert "but `**` (cell 1, line 5) saved it for backward" in out
    (project / "one.ipynb").write_text(notebook_json(
        ("markdown", "one cell"), "import torch\nw = torch.ones(3, requires_grad=True)\nu = w * 2\nv = u ** 2\nu.add_(3)"))
    _, out, _ = check(capsys, "--output-format", "concise", "one.ipynb")
    assert out.startswith("one.ipynb:cell 2:5:1: GL005 ")
    assert "but `**` (line 4) saved it for backward" in out


def test_full_quotes_the_line_of_the_cell(capsys, at_root):
    _, out, _ = check(capsys, "--output-format", "full", TRAINING)
    lines = out.splitlines()
    assert lines[0].startswith(f"{TRAINING}:cell 3:2:12: GL001 ")
    assert lines[1] == "  2 |     snap = (gain * inputs).detach()"
    assert lines[2] == "    |            " + "^" * 24


def test_github_annotates_the_notebook_without_a_line_of_its_json(capsys, at_root):
    _, out, _ = check(capsys, "--output-format", "github", TRAINING)
    assert out.startswith(f"::warning file={TRAINING},title=GL001 detached-result::cell 3, line 2: the result of ")
    assert "line=" not in out.split("::")[1]


def test_a_finding_in_a_time_cell_is_reported_and_a_bash_cell_is_not_read(capsys, project):
    (project / "nb.ipynb").write_text(notebook_json(
        "%%time\nimport torch\nw = torch.ones(3, requires_grad=True)\nu = w * 2\nv = u ** 2\nu.add_(3)",
        "%%bash\nfor f in *.pt; do echo $f; done"))
    status, out, _ = check(capsys, "--output-format", "concise", "nb.ipynb")
    assert status == 1 and out.startswith("nb.ipynb:cell 1:6:1: GL005 ") and out.count("\n") == 1


def test_a_clean_notebook_full_of_magics_has_no_findings(capsys, at_root):
    status, out, err = check(capsys, "fixtures/notebooks/good_training_loop.ipynb")
    assert (status, out) == (0, "")
    assert "No findings (1 file checked)." in err


def test_a_notebook_that_never_backpropagates_starves_nothing(capsys, at_root):
    # A notebook is a whole program: its policy's `forward` returns `.data`, and nothing in it
    # backpropagates or builds an optimizer (the cross-entropy method sets the weights); the same
    # policy trained by an optimizer in its twin is starved.
    status, out, _ = check(capsys, "--output-format", "concise", "fixtures/notebooks/good_cem_policy_forward_returns_data.ipynb")
    assert (status, out) == (0, "")
    status, out, _ = check(capsys, "--output-format", "concise", "fixtures/notebooks/bad_sgd_policy_forward_returns_data.ipynb")
    assert status == 1 and out.startswith(
        "fixtures/notebooks/bad_sgd_policy_forward_returns_data.ipynb:cell 2:17:16: GL001 ") and out.count("\n") == 1


def test_noqa_in_a_cell_silences_that_line_only(capsys, project):
    cells = ["import torch\nw = torch.ones(3, requires_grad=True)\nu = w * 2\nv = u ** 2  # noqa: GL005",
             "u.add_(3)\nv.sum().backward()"]
    (project / "nb.ipynb").write_text(notebook_json(*cells))
    status, out, _ = check(capsys, "--output-format", "concise", "nb.ipynb")
    assert status == 1 and out.startswith("nb.ipynb:cell 2:1:1: GL005 ")  # line 4 of cell 1 is not this one
    cells[1] = "u.add_(3)  # noqa: GL005\nv.sum().backward()"
    (project / "nb.ipynb").write_text(notebook_json(*cells))
    assert check(capsys, "--output-format", "concise", "nb.ipynb")[:2] == (0, "")


@pytest.mark.parametrize("text", ["{not json", '{"nbformat": 4}', ""])
def test_a_file_that_is_not_a_notebook_is_gl000_at_line_1(capsys, project, text):
    (project / "broken.ipynb").write_text(text)
    (project / "fine.py").write_text("x = 1\n")
    status, out, err = check(capsys, "--output-format", "concise", ".")
    assert status == 1
    assert out.startswith("broken.ipynb:1:1: GL000 the notebook was not checked: ")
    assert "(1 file checked, 1 not checked)" in err


def test_a_cell_that_does_not_parse_is_gl000_in_that_cell_and_the_others_are_checked(capsys, project):
    (project / "nb.ipynb").write_text(notebook_json(
        ("markdown", "m"), "import torch\ngain = torch.ones(1, requires_grad=True)",
        "def f(x):\n    return (gain * x).detach()\nloss = f(torch.ones(1)).sum()\nloss.backward()",
        "if True:\n    x = (1,\n"))
    status, out, _ = check(capsys, "--output-format", "concise", "nb.ipynb")
    lines = out.splitlines()
    assert status == 1 and len(lines) == 2
    assert lines[0].startswith("nb.ipynb:cell 3:2:12: GL001 ")
    assert lines[1].startswith("nb.ipynb:cell 4:2:9: GL000 syntax error, the cell was not checked: ")


def test_a_notebook_of_another_language_is_skipped(capsys, project):
    (project / "analysis.ipynb").write_text(notebook_json("library(ggplot2)\nx <- c(1, 2)", language="R"))
    status, out, err = check(capsys, "--output-format", "concise", "analysis.ipynb")
    assert (status, out) == (0, "")
    assert "No findings (1 file checked)." in err


def test_a_notebook_without_language_metadata_is_python(capsys, project):
    (project / "nb.ipynb").write_text(notebook_json("def f(:", language=None))
    assert check(capsys, "--output-format", "concise", "nb.ipynb")[1].startswith("nb.ipynb:cell 1:1:7: GL000 ")


def test_a_notebook_from_standard_input_is_read_by_its_name(capsys, monkeypatch, project):
    import io
    import sys

    text = (ROOT / TRAINING).read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    _, out, _ = check(capsys, "--output-format", "concise", "--stdin-filename", "mine.ipynb", "-")
    assert out.startswith("mine.ipynb:cell 3:2:12: GL001 ")


# ---- discovery and the library call ------------------------------------------------------------


def test_discovery_picks_notebooks_and_skips_their_checkpoints(project):
    (project / "nbs" / ".ipynb_checkpoints").mkdir(parents=True)
    (project / "nbs" / "train.ipynb").write_text(notebook_json("x = 1"))
    (project / "nbs" / ".ipynb_checkpoints" / "train-checkpoint.ipynb").write_text(notebook_json("x = 1"))
    (project / "nbs" / "notes.txt").write_text("")
    assert discover(["."]) == [Path("nbs/train.ipynb")]
    named = Path("nbs/.ipynb_checkpoints/train-checkpoint.ipynb")
    assert discover([named]) == [named]  # named on the command line: linted regardless


def test_lint_paths_reads_notebooks(project):
    shutil.copy(ROOT / TRAINING, project / "train.ipynb")
    [finding] = lint_paths(".")
    assert (finding.path, finding.cell, finding.line, finding.code) == ("train.ipynb", 3, 2, "GL001")


# ---- the dynamic pass ---------------------------------------------------------------------------


def test_the_dynamic_pass_does_not_run_notebooks(capsys, at_root):
    from gradlint.dynamic import launch

    if not launch.torch_available():
        pytest.skip("the dynamic pass needs torch")
    status, out, err = check(capsys, "--dynamic", "--output-format", "json", TRAINING)
    [finding] = json.loads(out)
    assert status == 1 and finding["cell"] == 3
    assert finding["verdict"]["status"] == "not-reached"
    assert finding["verdict"]["evidence"].startswith("the dynamic pass does not run notebooks")

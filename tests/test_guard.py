"""What is handed to libcst: Python's parser decides what is a syntax error (GL000); a file Python
accepts but that is too costly for libcst, or that libcst cannot read, is GL010, measured without
libcst; and none of it depends on the prefilter (GRADLINT_NO_PREFILTER=1)."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import libcst
import pytest

from gradlint import engine, prefilter
from gradlint.rule import resolve

ALL = resolve("ALL")
CORPUS = Path("/tmp/corpus")
# A module the prefilter lets through, so libcst is asked to read it.
TRAINS = ("import torch\nbase = torch.ones(3, requires_grad=True)\nu = base * 4\nsq = u ** 2\nu.add_(3)\n"
          "sq.sum().backward()\n")  # GL005 at line 5


def both(source, monkeypatch, codes=ALL) -> list:
    """The findings with the prefilter and without it; they must be the same."""
    monkeypatch.delenv(prefilter.DISABLE_ENV, raising=False)
    filtered = engine.lint_source(source, "m.py", codes)
    monkeypatch.setenv(prefilter.DISABLE_ENV, "1")
    plain = engine.lint_source(source, "m.py", codes)
    monkeypatch.delenv(prefilter.DISABLE_ENV)
    assert filtered == plain
    return filtered


@pytest.fixture
def no_libcst(monkeypatch):
    """The guard must decide without libcst: reaching it fails the test."""
    def parse_module(*args, **kwargs):
        raise AssertionError("libcst was asked to read a file past the limits")

    monkeypatch.setattr(libcst, "parse_module", parse_module)
    monkeypatch.setattr(engine.cst, "parse_module", parse_module)


COSTLY = {
    # F04/F08: a generated module of many lines (here short ones the prefilter would skip)
    "lines": ("x = 1\n" * (engine.MAX_LINES + 1), 1,
              f"it has {engine.MAX_LINES + 1:,} lines, more than the {engine.MAX_LINES:,} gradlint reads"),
    # a data table: few lines, many tokens
    "tokens": ("DATA = [" + "1," * (engine.MAX_TOKENS // 2 + 1) + "]\n", 1,
               f"more than {engine.MAX_TOKENS:,} tokens"),
    # F05: statements joined by `;` on one line (the analysis grew with their square)
    "one line": (TRAINS + "z = 1" + "; y = (base * base).detach()" * engine.MAX_STATEMENTS_PER_LINE + "\n", 7,
                 f"line 7 holds {engine.MAX_STATEMENTS_PER_LINE + 1:,} statements, more than the "
                 f"{engine.MAX_STATEMENTS_PER_LINE:,} gradlint reads on one line"),
    "depth": ("x = y" + ".a" * (engine.MAX_DEPTH + 10) + "\n", 1, f"nested more than {engine.MAX_DEPTH} levels deep"),
}


@pytest.mark.parametrize("name", COSTLY)
def test_a_file_too_costly_for_libcst_is_gl010_with_its_reason_and_what_to_do(name, monkeypatch, no_libcst):
    source, line, reason = COSTLY[name]
    [finding] = both(source, monkeypatch)
    assert (finding.code, finding.name, finding.line) == ("GL010", "parser-limit", line)
    assert finding.message.startswith("the file was not checked: ") and reason in finding.message
    assert "extend-exclude" in finding.hint and "split" in finding.hint
    assert both(source.encode(), monkeypatch) == [finding]
    # selected away, it is silent; the other rules never ran
    assert both(source, monkeypatch, ALL - {"GL010"}) == []


def test_just_within_the_limits_is_read(monkeypatch):
    at_limit = TRAINS + "z = 1" + "; y = 1" * (engine.MAX_STATEMENTS_PER_LINE - 1) + "\n"
    assert engine._read_ast(at_limit)[1] is None
    assert [f.code for f in both(at_limit, monkeypatch)] == ["GL005"]
    assert engine._read_ast("x = 1\n" * (engine.MAX_LINES - 1))[1] is None
    assert engine._read_ast("D = [" + "1," * (engine.MAX_TOKENS // 2 - 4) + "]\n")[1] is None
    # carriage returns end lines too
    assert engine._read_ast("x = 1\r" * (engine.MAX_LINES + 1))[1].code == "GL010"


def test_the_statement_count_sees_every_block():
    # statements on one line inside a function, a loop, a handler and a case
    body = "; ".join(["a = 1"] * (engine.MAX_STATEMENTS_PER_LINE + 1))
    for source in (f"def f():\n    {body}\n", f"for i in x:\n    pass\nelse:\n    {body}\n",
                   f"try:\n    pass\nexcept E:\n    {body}\n", f"match p:\n    case 1:\n        {body}\n",
                   f"if x: {body}\n"):
        found = engine._read_ast(source)[1]
        assert found is not None and found.code == "GL010", source[:40]


# F18: files Python accepts that libcst does not read.
VALID_UNREAD = {
    "backslash before a dedent": "def huber(r):\n    \\\nreturn r\n",
    "backslash at the end": "\r\n \\\r\n",
    "parenthesised annotated target": "import torch\n(pars): bool = True\n" + TRAINS,
    "bytes that are not UTF-8 in a comment": b"import torch\n# caf\xed\xb2\x80\n" + TRAINS.encode(),
}


@pytest.mark.parametrize("name", VALID_UNREAD)
def test_python_decides_what_is_a_syntax_error(name, monkeypatch):
    source = VALID_UNREAD[name]
    ast.parse(source)  # Python accepts it
    found = both(source, monkeypatch)
    assert all(f.code != "GL000" for f in found)
    if prefilter.may_report(source if isinstance(source, str) else source.decode("utf-8", "replace"),
                            ast.parse(source), ALL):
        [finding] = found
        assert (finding.code, finding.line, finding.column) == ("GL010", 1, 1)
        assert "gradlint's parser (libcst) cannot read this file, which Python accepts: " in finding.message
    else:  # no rule could report here: the file has no findings, read by libcst or not
        assert found == []


def test_libcsts_reason_names_the_place_without_its_list_of_expected_tokens(monkeypatch):
    # libcst gives up at 3:9, a line past the construct; its message says "error at 2:8".
    [finding] = both(VALID_UNREAD["parenthesised annotated target"], monkeypatch)
    assert finding.message.endswith("which Python accepts: parser error: error at 2:8")


def test_libcst_unread_files_are_reported_where_a_rule_could_report():
    assert prefilter.may_report(TRAINS, ast.parse(TRAINS), ALL)
    assert not prefilter.may_report(VALID_UNREAD["backslash before a dedent"],
                                    ast.parse(VALID_UNREAD["backslash before a dedent"]), ALL)


def test_a_syntax_error_is_still_gl000_in_pythons_words(monkeypatch):
    [finding] = both("def f(:\n    pass\n", monkeypatch)
    assert finding.code == "GL000" and finding.message.startswith("syntax error, the file was not checked: ")


def test_a_libcst_panic_is_a_finding_not_a_crash(monkeypatch):
    class PanicException(BaseException):  # what pyo3 raises for a Rust panic
        pass

    def parse_module(*args, **kwargs):
        raise PanicException("index out of bounds")

    monkeypatch.setattr(engine.cst, "parse_module", parse_module)
    [finding] = both(TRAINS, monkeypatch)
    assert finding.code == "GL010" and finding.message.endswith("which Python accepts: index out of bounds")


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus at /tmp/corpus (bash ../shared/tools/make_corpus.sh)")
def test_every_file_of_the_corpus_is_within_the_limits():
    over = []
    for root, _, names in os.walk(CORPUS):
        for name in names:
            if name.endswith(".py"):
                path = Path(root, name)
                unreadable = engine._read_ast(path.read_bytes())[1]
                if unreadable is not None:
                    over.append((str(path), unreadable.message))
    assert over == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS caps the address space on Linux")
def test_a_file_past_the_limits_costs_no_other_file_its_findings_in_one_process(tmp_path):
    # F16 at -j 1: a data table libcst would need gigabytes for, beside files with findings. Under
    # a memory cap libcst's native parser aborted the whole process (exit 134): no output at all.
    for i in range(5):
        (tmp_path / f"bad_{i}.py").write_text(TRAINS)
    (tmp_path / "table.py").write_text(TRAINS + "TABLE = [" + "1," * 300_000 + "]\n")

    def cap():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    proc = subprocess.run([sys.executable, "-m", "gradlint", "check", "--no-cache", "-j", "1",
                           "--output-format", "concise", "."], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600, preexec_fn=cap)
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert proc.stdout.count("GL005") == 5
    assert "table.py:1:1: GL010 the file was not checked: it has more than 150,000 tokens" in proc.stdout


def test_add_noqa_leaves_a_file_that_was_not_checked_as_it_is(tmp_path, capsys, monkeypatch):
    # A noqa would silence the only word that the file was never looked at; excluding it says so.
    from gradlint import cli

    monkeypatch.chdir(tmp_path)
    crowded = TRAINS + "z = 1" + "; y = 1" * engine.MAX_STATEMENTS_PER_LINE + "\n"
    (tmp_path / "crowded.py").write_text(crowded)
    assert cli.main(["check", "--no-cache", "--add-noqa", "crowded.py"]) == 1
    out, err = capsys.readouterr()
    assert (tmp_path / "crowded.py").read_text() == crowded
    assert out.startswith("crowded.py:7:1: GL010 ")
    assert "crowded.py:7: GL010 not given a noqa: gradlint did not check the file at all" in err


def test_on_a_grammar_libcst_does_not_know_what_it_cannot_read_is_always_reported(monkeypatch):
    # There the filter is off and not trusted: a module it would skip is still GL010.
    source = VALID_UNREAD["backslash before a dedent"]
    assert engine.lint_source(source, "m.py", ALL) == []
    monkeypatch.setattr(prefilter, "grammar_known", lambda version=None: False)
    [finding] = engine.lint_source(source, "m.py", ALL)
    assert finding.code == "GL010"


def test_the_dynamic_pass_neither_probes_nor_hides_a_file_that_was_not_checked(tmp_path):
    # --dynamic-only confirmed keeps UNPROBED codes: an unchecked file must not pass a CI gate.
    from gradlint.dynamic import launch

    path = tmp_path / "m.py"
    path.write_text("import torch\n(pars): bool = True\n" + TRAINS)
    [finding] = engine.lint_source(path.read_text(), str(path), ALL)
    assert finding.code == "GL010" and finding.code in launch.UNPROBED
    assert launch.probes([finding]) == ({}, {})


@pytest.mark.parametrize("levels", [1500, 5000])
@pytest.mark.parametrize("shape", ["x = {}1", "x = y{}"])
def test_past_the_depth_limit_python_s_own_compiler_decides_gl000(tmp_path, monkeypatch, no_libcst, shape, levels):
    # The lint parses under a raised recursion limit (libcst needs it), so a module Python itself
    # refuses to compile (`python -m py_compile`: RecursionError) was GL010, "too deep to analyse".
    source = shape.format(("-" if "{}1" in shape else ".a") * levels) + "\n"
    path = tmp_path / "deep.py"
    path.write_text(source)
    python = subprocess.run([sys.executable, "-m", "py_compile", str(path)], capture_output=True)
    (finding,) = both(source, monkeypatch)
    assert finding.code == ("GL000" if python.returncode else "GL010"), (python.stderr, finding.message)

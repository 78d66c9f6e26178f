"""What the analysis is given: Python's parser decides what is a syntax error (GL000); a file Python
accepts but that is past the limits the analysis is given is GL010, measured before it runs."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gradlint import engine
from gradlint.analysis import facts
from gradlint.rule import resolve

ALL = resolve("ALL")
CORPUS = Path("/tmp/corpus")
# A module with a finding (the analysis ran on it).
TRAINS = ("import torch\nbase = torch.ones(3, requires_grad=True)\nu = base * 4\nsq = u ** 2\nu.add_(3)\n"
          "sq.sum().backward()\n")  # GL005 at line 5


def both(source, monkeypatch, codes=ALL) -> list:
    """The findings, from text and from bytes alike."""
    found = engine.lint_source(source, "m.py", codes)
    other = source.encode() if isinstance(source, str) else source.decode("utf-8", "replace")
    if isinstance(source, str) or source.isascii():
        assert engine.lint_source(other, "m.py", codes) == found
    return found


@pytest.fixture
def no_analysis(monkeypatch):
    """The guard must decide before the analysis: reaching it fails the test."""
    def module_facts(*args, **kwargs):
        raise AssertionError("a file past the limits was analysed")

    monkeypatch.setattr(facts, "module_facts", module_facts)


COSTLY = {
    # F04/F08: a generated module of many lines
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
def test_a_file_too_costly_to_analyse_is_gl010_with_its_reason_and_what_to_do(name, monkeypatch, no_analysis):
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


# F18: files Python accepts that libcst (gradlint's parser before the analysis ran on ``ast``) did
# not read; they were GL010. Now they are analysed as Python reads them.
VALID_UNREAD = {
    "backslash before a dedent": ("def huber(r):\n    \\\nreturn r\n", []),
    "backslash at the end": ("\r\n \\\r\n", []),
    "parenthesised annotated target": ("import torch\n(pars): bool = True\n" + TRAINS, [("GL005", 7)]),
    "bytes that are not UTF-8 in a comment": (b"import torch\n# caf\xed\xb2\x80\n" + TRAINS.encode(), [("GL005", 7)]),
    # (a helper's returned tuple sliced with a zero step, which raises at run time: no element picked)
    "a zero-step slice of a returned tuple": (
        "import torch\n\ndef losses(m, x):\n    y = m(x)\n    return y.mean(), y.sum()\n\n"
        "total = sum(losses(torch.nn.Linear(2, 1), torch.ones(1, 2))[::0])\n" + TRAINS, [("GL005", 12)]),
}


@pytest.mark.parametrize("name", VALID_UNREAD)
def test_what_python_accepts_is_analysed(name, monkeypatch):
    source, expected = VALID_UNREAD[name]
    ast.parse(source)  # Python accepts it
    assert [(f.code, f.line) for f in both(source, monkeypatch)] == expected


def test_a_syntax_error_is_still_gl000_in_pythons_words(monkeypatch):
    [finding] = both("def f(:\n    pass\n", monkeypatch)
    assert finding.code == "GL000" and finding.message.startswith("syntax error, the file was not checked: ")
    assert "Python 2" not in finding.message


@pytest.mark.parametrize(("source", "line"), [
    ("import torch\nfrom __future__ import annotations\n", 2),
    ("def f():\n    pass\nreturn 1\n", 3),
    ("x = 1\nnonlocal x\n", 2),
])
def test_what_only_pythons_compiler_rejects_is_gl000(source, line, monkeypatch):
    """`python -m py_compile` rejects these though the parser reads them: so does gradlint."""
    ast.parse(source)
    with pytest.raises(SyntaxError):
        compile(source, "m.py", "exec", dont_inherit=True)
    [finding] = both(source, monkeypatch)
    assert (finding.code, finding.line) == ("GL000", line), finding.message


def test_the_compilers_warnings_are_not_printed(monkeypatch, capsys):
    """`x is 1` draws a SyntaxWarning from the compiler: the user's own business, not output of
    the lint."""
    assert both("x = 1\nprint(x is 1)\n", monkeypatch) == []
    assert capsys.readouterr().err == ""


def test_python_2_code_is_named_as_such(monkeypatch):
    [finding] = both('import torch\nprint "loss", 1\n', monkeypatch)
    assert finding.code == "GL000" and finding.line == 2
    assert "Missing parentheses in call to 'print'" in finding.message
    assert "this looks like Python 2 code" in finding.message


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
    # F16 at -j 1: a data table past the limits, beside files with findings, under a memory cap
    # (libcst's native parser once aborted the whole process there: exit 134, no output at all).
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


def test_the_dynamic_pass_neither_probes_nor_hides_a_file_that_was_not_checked(tmp_path):
    # --dynamic-only confirmed keeps UNPROBED codes: an unchecked file must not pass a CI gate.
    from gradlint.dynamic import launch

    path = tmp_path / "m.py"
    path.write_text(TRAINS + "z = 1" + "; y = 1" * engine.MAX_STATEMENTS_PER_LINE + "\n")
    [finding] = engine.lint_source(path.read_text(), str(path), ALL)
    assert finding.code == "GL010" and finding.code in launch.UNPROBED
    assert launch.probes([finding]) == ({}, {})


@pytest.mark.parametrize("levels", [1500, 5000])
@pytest.mark.parametrize("shape", ["x = {}1", "x = y{}"])
def test_past_the_depth_limit_python_s_own_compiler_decides_gl000(tmp_path, monkeypatch, no_analysis, shape, levels):
    # The lint parses under a raised recursion limit (the analysis needs it), so a module Python itself
    # refuses to compile (`python -m py_compile`: RecursionError) was GL010, "too deep to analyse".
    source = shape.format(("-" if "{}1" in shape else ".a") * levels) + "\n"
    path = tmp_path / "deep.py"
    path.write_text(source)
    python = subprocess.run([sys.executable, "-m", "py_compile", str(path)], capture_output=True)
    (finding,) = both(source, monkeypatch)
    assert finding.code == ("GL000" if python.returncode else "GL010"), (python.stderr, finding.message)

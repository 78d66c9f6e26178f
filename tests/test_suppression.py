"""``# noqa``, ``# gradlint: ignore[...]`` and ``# gradlint: skip-file``."""
from __future__ import annotations

import pytest

from gradlint import engine, suppression
from gradlint.finding import Finding


def finding(line: int, code: str = "GL001", end_line: int | None = None) -> Finding:
    names = {"GL001": "detached-result", "GL002": "python-roundtrip", "GL004": "retain-graph-in-loop"}
    return Finding(
        path="m.py", line=line, column=5, code=code, end_line=end_line or line, end_column=9,
        name=names.get(code, "rule"), message="msg",
    )


def kept(source: str, *findings: Finding) -> list[Finding]:
    return suppression.apply(list(findings), source)


@pytest.mark.parametrize("comment", [
    "# noqa",
    "# NOQA",
    "#noqa",
    "# noqa: GL001",
    "# noqa:GL001",
    "# noqa: GL002, GL001",
    "# noqa: GL002 GL001",
    "# noqa: gl001",
    "# noqa: GL00",  # a prefix, as flake8 allows
    "# type: ignore  # noqa: GL001",
    "# gradlint: ignore",
    "# gradlint: ignore[GL001]",
    "# gradlint: ignore[GL002, GL001]",
    "# gradlint: ignore[detached-result]",
    "# GRADLINT: IGNORE[gl001]",
])
def test_trailing_comment_suppresses(comment):
    source = f"x = 1\ny = f(x)  {comment}\n"
    assert kept(source, finding(2)) == []


@pytest.mark.parametrize("comment", [
    "# noqa: GL002",
    "# noqa: E501",  # another tool's code
    "# gradlint: ignore[GL002]",
    "# a comment that mentions noqa-ish words but no directive",
])
def test_comment_for_other_codes_does_not_suppress(comment):
    source = f"x = 1\ny = f(x)  {comment}\n"
    assert kept(source, finding(2)) == [finding(2)]


def test_noqa_inside_a_string_does_not_count():
    source = 'x = 1\ny = f("# noqa")\nz = """\n# noqa\n"""\n'
    assert kept(source, finding(2), finding(4)) == [finding(2), finding(4)]


def test_noqa_applies_on_any_line_of_a_multiline_finding():
    source = "y = f(\n    x,  # noqa: GL001\n)\n"
    assert kept(source, finding(1, end_line=3)) == []


def test_noqa_on_the_line_above_does_not_count():
    # flake8's convention: noqa is for the line it is on.
    source = "# noqa\ny = f(x)\n"
    assert kept(source, finding(2)) == [finding(2)]


def test_ignore_on_a_comment_only_line_above():
    source = "x = 1\n# gradlint: ignore[GL001]\ny = f(x)\nz = g(y)\n"
    assert kept(source, finding(3), finding(4)) == [finding(4)]


def test_ignore_trailing_a_previous_statement_does_not_reach_the_next_line():
    source = "x = f()  # gradlint: ignore[GL001]\ny = f(x)\n"
    assert kept(source, finding(1), finding(2)) == [finding(2)]


def test_ignore_above_only_silences_the_codes_it_names():
    source = "# gradlint: ignore[GL004]\nfor _ in r: loss.backward(retain_graph=True)\n"
    result = kept(source, finding(2, "GL001"), finding(2, "GL004"))
    assert [f.code for f in result] == ["GL001"]


def test_skip_file_reports_nothing():
    source = "# gradlint: skip-file\nx = 1\n"
    assert kept(source, finding(2), finding(2, "GL004")) == []


def test_skip_file_silences_syntax_errors_end_to_end():
    source = "# gradlint: skip-file\ndef f(:\n"
    assert engine.lint_source(source, "m.py") == []


def test_noqa_silences_a_syntax_error_in_a_file_that_does_not_tokenize():
    # The unclosed parenthesis makes tokenize fail; the line scan still finds the comment.
    assert [f.code for f in engine.lint_source("def f(:\n", "m.py")] == ["GL000"]
    assert engine.lint_source("def f(:  # noqa: GL000\n", "m.py") == []
    assert engine.lint_source("# gradlint: ignore[GL000]\ndef f(:\n", "m.py") == []


def test_no_findings_and_no_directives_pass_through_unchanged():
    assert kept("x = 1\n") == []
    assert kept("x = 1\n", finding(1)) == [finding(1)]

"""``# noqa``, ``# gradlint: ignore[...]`` and ``# gradlint: skip-file``."""
from __future__ import annotations

import pytest

from gradlint import engine, suppression
from gradlint.finding import Finding
from gradlint.rule import BY_CODE


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


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_lines_are_counted_as_python_counts_them(newline):
    # A form feed or U+2028 is not a line break for Python; a lone \r (old Mac files) is.
    source = f"x = 1  # \x0c \u2028{newline}y = f(x)  # noqa: GL001{newline}z = 2{newline}"
    assert kept(source, finding(2), finding(3)) == [finding(3)]
    assert kept(source.replace("z = 2", "z = ("), finding(2), finding(3)) == [finding(3)]  # untokenizable


def test_no_findings_and_no_directives_pass_through_unchanged():
    assert kept("x = 1\n") == []
    assert kept("x = 1\n", finding(1)) == [finding(1)]


# --- GL900: unused suppressions -----------------------------------------------------------------

ALL = None  # lint_source's codes: None is the default selection
EVERY = frozenset(BY_CODE)  # every rule, GL900 included
# One finding: GL005 on line 6 (``u`` edited in place after ``**`` saved it).
SAVED = (
    "import torch\n"
    "\n"
    "base = torch.tensor([1.0], requires_grad=True)\n"
    "u = base * 4\n"
    "sq = u ** 2\n"
    "u.add_(3){comment}\n"
    "sq.sum().backward()\n"
)


def unused_of(source: str, codes=EVERY) -> list[tuple[int, int, str]]:
    return [(f.line, f.column, f.message) for f in engine.lint_source(source, "m.py", codes)
            if f.code == "GL900"]


def test_the_saved_source_has_one_gl005_finding():
    assert [(f.code, f.line) for f in engine.lint_source(SAVED.format(comment=""), "m.py", EVERY)] == [("GL005", 6)]


def test_a_noqa_code_that_silences_nothing_is_reported_at_the_comment():
    source = "x = 1\ny = x + 1  # noqa: GL003\n"
    assert unused_of(source) == [(2, 12, "unused suppression: # noqa: GL003 (no GL003 finding on line 2)")]
    finding = next(f for f in engine.lint_source(source, "m.py", EVERY))
    assert (finding.end_line, finding.end_column, finding.name) == (2, 25, "unused-suppression")
    assert "remove" not in finding.hint and finding.hint.startswith("delete `# noqa: GL003`")


def test_a_used_noqa_is_not_reported_and_silences_its_finding():
    source = SAVED.format(comment="  # noqa: GL005")
    assert engine.lint_source(source, "m.py", EVERY) == []


def test_only_the_unused_codes_of_a_directive_are_named():
    source = SAVED.format(comment="  # noqa: E501, GL001, GL005")
    found = engine.lint_source(source, "m.py", EVERY)
    assert [(f.code, f.message) for f in found] == [
        ("GL900", "unused suppression: # noqa: E501, GL001, GL005 (no GL001 finding on line 6)")]
    assert found[0].hint.startswith("remove `GL001` from `# noqa: E501, GL001, GL005`")


@pytest.mark.parametrize("comment", [
    "  # noqa",  # bare: may be for another tool
    "  # noqa: E501",  # another tool's code
    "  # noqa: F401, W291",
    "  # noqa: GL900",  # GL900's own code is never judged
    "  # noqa: GL005",
    "  # noqa: GL00",  # a prefix that matched
    "  # type: ignore",
])
def test_not_reported(comment):
    assert unused_of(SAVED.format(comment=comment)) == []


def test_off_by_default_and_on_with_all():
    source = "x = 1  # noqa: GL003\n"
    assert unused_of(source, ALL) == []
    assert [f.code for f in engine.lint_source(source, "m.py", None)] == []
    from gradlint.rule import resolve
    assert "GL900" in resolve("ALL") and "GL900" not in resolve(None)
    assert unused_of(source, resolve("ALL")) != []
    assert unused_of(source, resolve("GL003,unused-suppression")) != []


def test_codes_of_rules_that_did_not_run_are_not_judged():
    source = "x = 1  # noqa: GL003, GL005\n"
    assert unused_of(source, frozenset({"GL001", "GL900"})) == []
    assert unused_of(source, frozenset({"GL003", "GL900"})) == [
        (1, 8, "unused suppression: # noqa: GL003, GL005 (no GL003 finding on line 1)")]
    # A prefix is judged only when every rule it covers ran.
    assert unused_of("x = 1  # noqa: GL00\n", frozenset({"GL001", "GL900"})) == []
    assert len(unused_of("x = 1  # noqa: GL00\n")) == 1


def test_per_file_ignored_codes_are_not_judged(tmp_path, monkeypatch, capsys):
    from gradlint import cli
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text(
        "[tool.gradlint]\nselect = ['ALL']\n[tool.gradlint.per-file-ignores]\n'legacy/*' = ['GL003']\n")
    (tmp_path / "legacy").mkdir()
    for name in ("legacy/old.py", "new.py"):
        (tmp_path / name).write_text("x = 1  # noqa: GL003\n")
    assert cli.main(["check", "--output-format", "concise", "."]) == 1
    out = capsys.readouterr().out
    assert out == "new.py:1:8: GL900 unused suppression: # noqa: GL003 (no GL003 finding on line 1)\n"


def test_a_code_that_names_no_rule_is_reported():
    assert unused_of("x = 1  # noqa: GL009\n") == [
        (1, 8, "unused suppression: # noqa: GL009 (GL009 is not a gradlint rule)")]
    assert unused_of("x = 1  # gradlint: ignore[detached-rezult]\n") == [
        (1, 8, "unused suppression: # gradlint: ignore[detached-rezult] (detached-rezult is not a gradlint rule)")]


def test_gradlint_ignore_forms():
    assert unused_of("x = 1  # gradlint: ignore\n") == [
        (1, 8, "unused suppression: # gradlint: ignore (no finding on line 1)")]
    # Judged only when every rule ran: it may be meant for one that did not.
    assert unused_of("x = 1  # gradlint: ignore\n", frozenset({"GL001", "GL900"})) == []
    assert unused_of("# gradlint: ignore[GL001]\nx = 1\n") == [
        (1, 1, "unused suppression: # gradlint: ignore[GL001] (no GL001 finding on line 2)")]
    used_above = SAVED.replace("u.add_(3)", "# gradlint: ignore[inplace-on-saved]\nu.add_(3)")
    assert engine.lint_source(used_above.format(comment=""), "m.py", EVERY) == []
    assert engine.lint_source(SAVED.format(comment="  # gradlint: ignore"), "m.py", EVERY) == []


def test_a_noqa_gl900_silences_gl900_itself():
    assert unused_of("x = 1  # noqa: GL003, GL900\n") == []
    assert unused_of("x = 1  # noqa: GL003  # noqa: GL900\n") == []
    assert unused_of("x = 1  # gradlint: ignore[GL003]  # noqa: GL900\n") == []
    assert unused_of("x = 1  # noqa: GL003  # gradlint: ignore[unused-suppression]\n") == []
    assert unused_of("x = 1  # noqa: GL003  # noqa\n") == []  # a bare noqa silences everything
    # ... but a directive never silences the report about itself.
    assert len(unused_of("x = 1  # gradlint: ignore\n")) == 1
    assert len(unused_of("x = 1  # noqa: GL003, GL001\n")) == 1


def test_multiline_finding_uses_a_noqa_on_any_of_its_lines():
    split = SAVED.replace("u.add_(3){comment}", "u.add_({first}\n    3){second}")
    assert [(f.code, f.line, f.end_line) for f in engine.lint_source(
        split.format(first="", second=""), "m.py", EVERY)] == [("GL005", 6, 7)]
    assert engine.lint_source(split.format(first="  # noqa: GL005", second=""), "m.py", EVERY) == []
    assert engine.lint_source(split.format(first="", second="  # noqa: GL005"), "m.py", EVERY) == []


def test_directives_in_strings_skipped_and_broken_files_and_skip_file_judge_nothing():
    assert unused_of('x = "# noqa: GL003"\n') == []
    assert [f.code for f in engine.lint_source("def f(:  # noqa: GL003\n", "m.py", EVERY)] == ["GL000"]
    assert unused_of("# gradlint: skip-file\nx = 1  # noqa: GL003\n") == []
    # A file that parses ran GL000 and had no GL000 finding.
    assert len(unused_of("x = 1  # noqa: GL000\n")) == 1


def test_the_dynamic_pass_probes_no_gl900_finding_and_never_hides_one(tmp_path, monkeypatch, capsys):
    from gradlint import cli
    from gradlint.dynamic import launch
    path = tmp_path / "m.py"
    path.write_text("x = 1  # noqa: GL003\n")
    found = engine.lint_source(path.read_text(), str(path), EVERY)
    fids, files = launch.probes(found)
    assert [f.code for f in found] == ["GL900"] and fids == {} and files == {}
    [attached] = launch.attach(found, fids, {}, unseen=lambda f: None)
    assert attached.verdict.status == "not-reached" and "nothing to run" in attached.verdict.evidence
    if launch.torch_available():  # the CLI asks for torch before any dynamic run
        monkeypatch.chdir(tmp_path)
        assert cli.main(["check", "--select", "ALL", "--dynamic-only", "confirmed",
                         "--output-format", "concise", "m.py"]) == 1
        out, err = capsys.readouterr()
        assert out.startswith("m.py:1:8: GL900 ") and "hid" not in err


# --- codes that name no rule: a warning on stderr, as ruff's for `# noqa` -----------------------

@pytest.mark.parametrize("line, expected", [
    ("x = 1  # gradlint: ignore[detached-reslt]", [("detached-reslt", "detached-result")]),
    ("x = 1  # gradlint: ignore[GL001, inplace-on-saev]", [("inplace-on-saev", "inplace-on-saved")]),
    ("x = 1  # noqa: GL05", [("GL05", "GL005")]),
    ("x = 1  # noqa: E501, GL0055", [("GL0055", "GL005")]),
    ("x = 1  # noqa:gl05", [("gl05", "GL005")]),  # echoed as written
    ("x = 1  # GRADLINT: IGNORE[Detached-Reslt]", [("Detached-Reslt", "detached-result")]),
    ("x = 1  # gradlint: ignore[E501]", [("E501", None)]),  # gradlint's own directive: its rules only
    # Silent: real codes, names, prefixes, other tools' codes in a noqa, the bare forms.
    ("x = 1  # noqa: E501, F401, W291", []),
    ("x = 1  # noqa: GL001, GL00, GL9", []),
    ("x = 1  # gradlint: ignore[GL0, detached-result, Inplace-On-Saved]", []),
    ("x = 1  # noqa", []),
    ("x = 1  # gradlint: ignore", []),
    ("x = '# gradlint: ignore[detached-reslt]'", []),  # not a comment
])
def test_codes_that_name_no_rule(line, expected):
    found = suppression.unknown_rules(f"import torch\n{line}\n")
    assert [(code, close) for _, code, _, close in found] == expected
    assert all(at == 2 for at, *_ in found)


def test_a_file_skipped_whole_gets_no_warning():
    assert suppression.unknown_rules("# gradlint: skip-file\nx = 1  # noqa: GL05\n") == []


def test_the_warning_names_the_place_the_directive_and_the_closest_rule():
    texts = {"a.py": "x = 1\ny = 2  # gradlint: ignore[detached-reslt]  # noqa: GL7\n",
             ("nb.ipynb", 3): "z = 3  # noqa: GL05\n"}
    assert suppression.unknown_rule_warnings(texts) == [
        "a.py:2: unknown rule 'detached-reslt' in `# gradlint: ignore[detached-reslt]` "
        "(did you mean 'detached-result'?): it silences nothing",
        "a.py:2: unknown rule 'GL7' in `# noqa: GL7`: it silences nothing",
        "nb.ipynb:cell 3:1: unknown rule 'GL05' in `# noqa: GL05` (did you mean 'GL005'?): "
        "it silences nothing",
    ]


def test_the_command_warns_once_per_code_from_a_cold_or_warm_cache_and_a_pool(tmp_path, monkeypatch, capsys):
    from gradlint import cli, parallel

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(parallel, "POOL_MIN", 2)
    for index in range(4):
        (tmp_path / f"m{index}.py").write_text(
            "x = 1\n" * index + "y = 2  # gradlint: ignore[detached-reslt]\n" if index % 2 else "x = 1\n")
    (tmp_path / "nb.ipynb").write_text(
        '{"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# title"]},'
        ' {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null,'
        ' "source": ["x = 1\\n", "y = 2  # noqa: GL05\\n"]}],'
        ' "metadata": {"kernelspec": {"language": "python", "name": "python3"}},'
        ' "nbformat": 4, "nbformat_minor": 5}')
    expected = [
        "gradlint: warning: m1.py:2: unknown rule 'detached-reslt' in "
        "`# gradlint: ignore[detached-reslt]` (did you mean 'detached-result'?): it silences nothing",
        "gradlint: warning: m3.py:4: unknown rule 'detached-reslt' in "
        "`# gradlint: ignore[detached-reslt]` (did you mean 'detached-result'?): it silences nothing",
        "gradlint: warning: nb.ipynb:cell 2:2: unknown rule 'GL05' in `# noqa: GL05` "
        "(did you mean 'GL005'?): it silences nothing",
    ]
    for args in (["--no-cache", "-j", "1"], ["--no-cache", "-j", "2"], ["-j", "2"], ["-j", "2"]):
        code, out, err = cli.main(["check", *args, "."]), *capsys.readouterr()
        assert (code, out) == (0, "")
        assert err.splitlines() == [*expected, "No findings (5 files checked)."], args


@pytest.mark.parametrize("text", [
    "x = 1  # noqa: GL001\n", "x = 1  # NOQA:gl01\n", "x = 1  # noqa: E501, GL9\n", "# noqa: E501\n",
    "# Gradlint: Ignore[detached-result]\n", "# gradlint:ignore\n", "# gradlint: skip-file\n",
    "x = 1\n", "noqa GL001\n", "# noqa:\tgl\n", "# gradlİnt: ignore[GL001]\n", "# gradlınt: ignore[x]\n",
    "# noqa: GL001 é\n", "",
])
def test_may_name_rules_says_what_its_pattern_says_of_bytes_and_text(text):
    # The literal pre-check must never answer "no" where the case-insensitive pattern finds one.
    assert suppression.may_name_rules(text) == (suppression._NAMES_RULES.search(text) is not None)
    data = text.encode()
    assert suppression.may_name_rules(data) == (suppression._NAMES_RULES_BYTES.search(data) is not None)


HELPER = '''\
import torch


def penalty(out):
    value = float(out.pow(2).mean().item())
    return torch.tensor(value, requires_grad=True){comment}
'''

TRAIN = '''\
import torch
import torch.nn as nn

from helpers import penalty

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
out = model(torch.randn(8, 4))
loss = out.mean() + penalty(out)
loss.backward()
opt.step()
'''


@pytest.mark.parametrize("linted", [["."], ["train.py"]])
def test_a_noqa_at_a_site_of_another_file_silences_it_at_the_call(tmp_path, monkeypatch, capsys, linted):
    """The copy in helpers.py is reported at its own line when the run lints that file, and at
    the call in train.py otherwise: one mistake. `--add-noqa` writes its comment at the site, so
    that comment must silence the call's finding too, or the next run fails on a finding the
    suppression was meant for."""
    from gradlint import cli
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "helpers.py").write_text(HELPER.format(comment=""))
    assert cli.main(["check", "--no-cache", "--output-format", "concise", *linted]) == 1
    first = capsys.readouterr().out
    assert "GL002" in first, first
    (tmp_path / "helpers.py").write_text(HELPER.format(comment="  # noqa: GL002"))
    assert cli.main(["check", "--no-cache", "--output-format", "concise", *linted]) == 0, capsys.readouterr().out

"""The output formats, the summary line and the statistics."""
from __future__ import annotations

import io
import json

from gradlint import cli
from gradlint.finding import Finding, Severity, Verdict
import re

from gradlint.report import FORMATS, concise, full, github, gitlab, json_, json_lines, junit, rdjson, sarif

SOURCE = "import torch\n\ndef f(x):\n    return x.detach()\n"


def detached(**changes) -> Finding:
    values = dict(
        path="model.py", line=4, column=12, code="GL001", end_line=4, end_column=22,
        name="detached-result", message="the result is detached", hint="drop .detach()",
        details={"tensor": "x"},
    )
    values.update(changes)
    return Finding(**values)


def render(write, findings, sources=None) -> str:
    out = io.StringIO()
    write(findings, out, sources if sources is not None else {"model.py": SOURCE})
    return out.getvalue()


def test_every_format_is_registered():
    assert FORMATS == {"full": full.write, "concise": concise.write, "json": json_.write,
                       "json-lines": json_lines.write, "github": github.write, "sarif": sarif.write,
                       "rdjson": rdjson.write, "gitlab": gitlab.write, "junit": junit.write}


def test_concise_is_one_line_per_finding_with_1_based_positions():
    text = render(concise.write, [detached(), detached(line=1, column=1, code="GL000")])
    assert text.splitlines() == [
        "model.py:4:12: GL001 the result is detached",
        "model.py:1:1: GL000 the result is detached",
    ]


def test_concise_shows_a_verdict_only_when_there_is_one():
    text = render(concise.write, [detached(verdict=Verdict("confirmed", "x.grad is None"))])
    assert text == "model.py:4:12: GL001 the result is detached [dynamic: confirmed]\n"


def test_concise_says_why_the_dynamic_pass_failed():
    text = render(concise.write, [detached(verdict=Verdict("error", "the script exited with status 2"))])
    assert text == ("model.py:4:12: GL001 the result is detached "
                    "[dynamic: error: the script exited with status 2]\n")


def test_json_has_the_schema_keys():
    data = json.loads(render(json_.write, [detached()]))
    assert data == [{
        "code": "GL001", "name": "detached-result", "message": "the result is detached",
        "path": "model.py", "line": 4, "column": 12, "end_line": 4, "end_column": 22,
        "severity": "warning", "verdict": None, "hint": "drop .detach()", "details": {"tensor": "x"},
    }]


def test_json_verdict_and_severity_are_plain_values():
    finding = detached(severity=Severity.ERROR, verdict=Verdict("dismissed", "grad flows"))
    [data] = json.loads(render(json_.write, [finding]))
    assert data["severity"] == "error"
    assert data["verdict"] == {"status": "dismissed", "evidence": "grad flows"}


def test_json_with_no_findings_is_an_empty_array():
    assert json.loads(render(json_.write, [])) == []


def test_full_puts_carets_under_the_finding():
    text = render(full.write, [detached()])
    assert text.splitlines() == [
        "model.py:4:12: GL001 the result is detached",
        "  4 |     return x.detach()",
        "    |            ^^^^^^^^^^",
        "  hint: drop .detach()",
    ]
    assert "\x1b[" not in text  # not a terminal: no colour codes


def test_full_shows_the_verdict_and_separates_findings():
    findings = [detached(), detached(line=3, column=1, end_column=4, verdict=Verdict("confirmed", "no grad"))]
    blocks = render(full.write, findings).split("\n\n")
    assert len(blocks) == 2
    assert blocks[1].splitlines()[-1] == "  dynamic: confirmed: no grad"


def test_full_multiline_finding_underlines_to_the_end_of_its_first_line():
    text = render(full.write, [detached(end_line=5, end_column=2)])
    assert text.splitlines()[2] == "    |            ^^^^^^^^^^"


def test_full_carets_line_up_after_tabs():
    source = "def f(x):\n\treturn x.detach()\n"
    text = render(full.write, [detached(line=2, column=9, end_column=19)], {"model.py": source})
    code_line, caret_line = text.splitlines()[1:3]
    assert code_line.index("x.detach") == caret_line.index("^")


def test_full_without_the_source_still_prints_the_finding():
    text = render(full.write, [detached(hint="")], sources={})
    assert text == "model.py:4:12: GL001 the result is detached\n"


def test_full_escapes_nothing_the_user_wrote():
    # rich markup in a message or a source line must come out as written.
    source = "x = '[bold]'\n"
    finding = detached(line=1, column=5, end_column=13, message="[red]not markup[/red]")
    text = render(full.write, [finding], {"model.py": source})
    assert "[red]not markup[/red]" in text and "x = '[bold]'" in text


def test_summary_wording():
    one = detached()
    other = detached(path="other.py")
    assert cli.summary([], 0) == "No findings (0 files checked)."
    assert cli.summary([], 1) == "No findings (1 file checked)."
    assert cli.summary([], 0, 1) == "1 error, no findings (0 files checked)."
    assert cli.summary([], 3, 2) == "2 errors, no findings (3 files checked)."
    assert cli.summary([one], 2, 3) == "Found 1 finding in 1 file (2 files checked, 3 errors)."
    assert cli.summary([one], 1) == "Found 1 finding in 1 file (1 file checked)."
    assert cli.summary([one, one], 3) == "Found 2 findings in 1 file (3 files checked)."
    assert cli.summary([one, other], 2) == "Found 2 findings in 2 files (2 files checked)."
    unread = detached(code="GL000", name="syntax-error", path="broken.py")
    assert cli.summary([one, unread], 3) == "Found 2 findings in 2 files (2 files checked, 1 not checked)."
    judged = [detached(verdict=Verdict(status, "…")) for status in ("confirmed", "confirmed", "error", "error")]
    assert cli.summary(judged, 1) == ("Found 4 findings in 1 file (1 file checked). "
                                      "Dynamic pass: 2 confirmed, 2 errors.")
    assert cli.summary(judged[2:3], 1).endswith("Dynamic pass: 1 error.")


def test_statistics_sorted_by_count_then_code():
    findings = [detached(code="GL004", name="retain-graph-in-loop")] + [detached()] * 2 + [
        detached(code="GL000", name="syntax-error"), detached(code="GL003", name="requires-grad-after-no-grad"),
    ]
    out = io.StringIO()
    cli.write_statistics(findings, out)
    assert out.getvalue().splitlines() == [
        "  2  GL001  detached-result",
        "  1  GL000  syntax-error",
        "  1  GL003  requires-grad-after-no-grad",
        "  1  GL004  retain-graph-in-loop",
    ]


# GitHub's workflow command: ::level prop=value,...::message (properties escape % CR LF : ,
# and the message % CR LF).
_COMMAND = re.compile(r"^::(warning|error) ((?:[a-zA-Z]+=[^,:\r\n]*)(?:,[a-zA-Z]+=[^,:\r\n]*)*)::([^\r\n]*)$")


def test_github_is_one_workflow_command_per_finding():
    text = render(github.write, [detached(), detached(severity=Severity.ERROR, line=1)])
    lines = text.splitlines()
    assert len(lines) == 2 and all(_COMMAND.match(line) for line in lines), text
    level, props, message = _COMMAND.match(lines[0]).groups()
    assert level == "warning" and lines[1].startswith("::error ")
    assert dict(p.split("=", 1) for p in props.split(",")) == {
        "file": "model.py", "line": "4", "col": "12", "endLine": "4", "endColumn": "22",
        "title": "GL001 detached-result"}
    assert message == "the result is detached%0Ahint: drop .detach()"


def test_github_annotates_an_error_of_the_run_with_no_file(capsys, tmp_path, monkeypatch):
    # The run fails (exit 2) on a path it could not read: the check's summary must say why.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.py").write_text("x = 1\n")
    assert cli.main(["check", "--output-format", "github", "ok.py", "missing.py"]) == 2
    out = capsys.readouterr().out
    assert out == "::error title=gradlint::missing.py: no such file or directory\n"


def test_github_escapes_percent_colon_comma_and_newlines():
    odd = detached(path="a:b,c%d.py", message="100% wrong:\nsee, here\r", hint="",
                   verdict=Verdict("confirmed", "w: reached, 50%"))
    [line] = render(github.write, [odd]).splitlines()
    match = _COMMAND.match(line)
    assert match, line
    assert "file=a%3Ab%2Cc%25d.py" in match.group(2)
    assert match.group(3) == "100%25 wrong:%0Asee, here%0D%0Adynamic: confirmed: w: reached, 50%25"


def test_json_lines_is_one_object_per_line_and_nothing_for_no_findings():
    text = render(json_lines.write, [detached(), detached(line=1)])
    objects = [json.loads(line) for line in text.splitlines()]
    assert [o["line"] for o in objects] == [4, 1] and objects[0]["code"] == "GL001"
    assert render(json_lines.write, []) == ""

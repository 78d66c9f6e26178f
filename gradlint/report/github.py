"""GitHub Actions workflow commands, one per finding, so findings show as annotations on the
pull request's diff:

    ::warning file=model.py,line=12,col=12,endLine=12,endColumn=24,title=GL001 detached-result::message

GitHub's syntax (https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions):
in the message, ``%``, CR and LF are escaped as ``%25``, ``%0D``, ``%0A``; in a property value,
also ``:`` and ``,`` (``%3A``, ``%2C``), since they separate the properties.

An error of the run (a path that could not be read or checked) is an ``::error`` with no file.

A notebook's finding has no line GitHub could show: its lines are a cell's, and the diff shows the
notebook's JSON (or a rendered view without line numbers). It is annotated on the file, with no
line, and the message starts with where it is: ``cell 3, line 4: ...``. A line number of the JSON
would point at the wrong text.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TextIO

from gradlint.finding import Finding, Severity


def write(findings: list[Finding], out: TextIO, sources: Mapping[str, str],
          errors: Sequence[str] = ()) -> None:
    for finding in findings:
        out.write(line(finding) + "\n")
    # A path that could not be read or checked fails the run (exit 2): an annotation of the
    # run, with no file, so the check's summary says why and not only its log.
    for error in errors:
        message = error[len("error: "):] if error.startswith("error: ") else error
        out.write(f"::error title={_property('gradlint')}::{_data(message)}\n")


def line(finding: Finding) -> str:
    command = "error" if finding.severity is Severity.ERROR else "warning"
    properties = {
        "file": finding.path, "line": finding.line, "col": finding.column,
        "endLine": finding.end_line, "endColumn": finding.end_column,
        "title": f"{finding.code} {finding.name}",
    }
    message = finding.message
    if finding.cell is not None:
        properties = {"file": finding.path, "title": properties["title"]}
        message = f"cell {finding.cell}, line {finding.line}: {message}"
    if finding.verdict is not None:
        message += f"\ndynamic: {finding.verdict.status}: {finding.verdict.evidence}"
    if finding.hint:
        message += f"\nhint: {finding.hint}"
    shown = ",".join(f"{key}={_property(str(value))}" for key, value in properties.items())
    return f"::{command} {shown}::{_data(message)}"


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")

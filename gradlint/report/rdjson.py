"""reviewdog's Diagnostic Format, rdjson: ``gradlint check --output-format rdjson | reviewdog
-f=rdjson -reporter=github-pr-review`` posts findings as review comments.

One ``DiagnosticResult`` object: ``source`` names gradlint, and each diagnostic has the finding's
text (message, dynamic verdict, hint), ``location.path`` relative to the current folder, a
``range`` whose end is exclusive, ``severity`` (``ERROR`` for GL000 and GL010, ``WARNING`` otherwise,
``INFO`` for a finding the dynamic pass dismissed) and ``code.value``, the rule code.

Lines and columns are 1-based. As reviewdog's proto specifies, a column counts UTF-8 bytes, not
characters: ``x = "é"; y.detach()`` puts ``y`` at column 11, where gradlint's other formats say
10. When the file's text is not at hand, columns count characters. A notebook finding has no
range (its lines are the cell's, not the .ipynb file's); its message starts with the cell.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import TextIO

from gradlint.finding import Finding, Severity
from gradlint.report import json_safe, review

_NEWLINE = re.compile(r"\r\n|\r|\n")


def write(findings: list[Finding], out: TextIO, sources: Mapping[str, str],
          errors: Sequence[str] = ()) -> None:
    source = {"name": "gradlint"}
    home = review.home()
    if home:
        source["url"] = home
    lines_by_path: dict[str, list[str]] = {}
    diagnostics = []
    for finding in findings:
        if finding.path not in lines_by_path:
            lines_by_path[finding.path] = _NEWLINE.split(sources[finding.path]) if finding.path in sources else []
        diagnostics.append(diagnostic(finding, lines_by_path[finding.path]))
    json.dump(json_safe({"source": source, "diagnostics": diagnostics}), out, indent=2)
    out.write("\n")


def diagnostic(finding: Finding, lines: list[str]) -> dict:
    """One rdjson ``Diagnostic``; ``lines`` are the file's lines, to count columns in bytes."""
    location: dict = {"path": review.path(finding.path)}
    message = review.text(finding)
    if finding.cell is None:
        location["range"] = {
            "start": {"line": finding.line, "column": _byte_column(lines, finding.line, finding.column)},
            "end": {"line": finding.end_line, "column": _byte_column(lines, finding.end_line, finding.end_column)},
        }
    else:
        message = f"{review.cell_place(finding)}: {message}"
    return {"message": message, "location": location, "severity": _severity(finding),
            "code": {"value": finding.code}}


def _severity(finding: Finding) -> str:
    if finding.verdict is not None and finding.verdict.status == "dismissed":
        return "INFO"
    return "ERROR" if finding.severity is Severity.ERROR else "WARNING"


def _byte_column(lines: list[str], line: int, column: int) -> int:
    """The 1-based UTF-8 byte column of the 1-based character ``column`` on ``line``."""
    if not 1 <= line <= len(lines):
        return column
    before = lines[line - 1][:column - 1]
    # A column past the end of the line (the end of a range) counts one byte per missing character.
    return len(before.encode("utf-8", "surrogatepass")) + (column - 1 - len(before)) + 1

"""One line per finding, ``path:line:col: CODE message``: for grep, editors and CI logs.

In a notebook the location names the cell, as ruff does: ``train.ipynb:cell 3:4:5: GL001 ...``."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TextIO

from gradlint.finding import Finding


def write(findings: list[Finding], out: TextIO, sources: Mapping[str, str],
          errors: Sequence[str] = ()) -> None:
    for finding in findings:
        out.write(line(finding) + "\n")


def line(finding: Finding) -> str:
    text = f"{finding.location}: {finding.code} {finding.message}"
    if finding.verdict is not None:
        # (an error says why in the same line: the run that failed is the user's to mend)
        why = f": {finding.verdict.evidence}" if finding.verdict.status == "error" and finding.verdict.evidence else ""
        text += f" [dynamic: {finding.verdict.status}{why}]"
    return text

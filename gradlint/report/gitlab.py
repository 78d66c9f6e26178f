"""GitLab Code Quality: a JSON array of issues, for ``artifacts: reports: codequality:`` in
``.gitlab-ci.yml``; GitLab shows them in the merge request and on its diff.

Each issue has ``description`` (the code, message, dynamic verdict and hint), ``check_name`` (the
rule code), ``fingerprint`` (``review.fingerprints``: unique in the report and stable when lines
move, which is how GitLab tells a new finding from an old one), ``severity`` and
``location.path`` (relative to the current folder: run gradlint from the repository's root) with
``lines.begin`` / ``lines.end``. Severity: ``critical`` for GL000, GL010 and for a finding the dynamic
pass confirmed, ``major`` for the others, ``info`` for one it dismissed. A notebook finding is
placed on line 1 of the notebook (its lines are the cell's, not the .ipynb file's); its
description starts with the cell and line. No findings: ``[]``.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TextIO

from gradlint.finding import Finding, Severity
from gradlint.report import json_safe, review


def write(findings: list[Finding], out: TextIO, sources: Mapping[str, str],
          errors: Sequence[str] = ()) -> None:
    issues = [issue(finding, fingerprint)
              for finding, fingerprint in zip(findings, review.fingerprints(findings, sources))]
    json.dump(json_safe(issues), out, indent=2)
    out.write("\n")


def issue(finding: Finding, fingerprint: str) -> dict:
    """One Code Quality issue."""
    description = f"{finding.code} {review.text(finding)}"
    lines = {"begin": finding.line, "end": max(finding.end_line, finding.line)}
    if finding.cell is not None:
        description = f"{review.cell_place(finding)}: {description}"
        lines = {"begin": 1, "end": 1}
    return {
        "description": description,
        "check_name": finding.code,
        "fingerprint": fingerprint,
        "severity": _severity(finding),
        "location": {"path": review.path(finding.path), "lines": lines},
    }


def _severity(finding: Finding) -> str:
    status = finding.verdict.status if finding.verdict is not None else None
    if status == "dismissed":
        return "info"
    if finding.severity is Severity.ERROR or status == "confirmed":
        return "critical"
    return "major"

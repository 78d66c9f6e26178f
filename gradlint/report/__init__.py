"""Output formats: each module writes a run's findings one way.

A writer is ``write(findings, out, sources)``: the sorted findings, a text stream, and the texts
the findings' lines count in (for formats that quote the source), keyed by
``Finding.source_key``: a file's text by its path; for a notebook, each code cell's own text by
(path, cell), since a notebook finding's lines are its cell's lines (``finding.cell``) and the
notebook's JSON has no such lines to quote.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TextIO

from gradlint.finding import Finding
from gradlint.report import concise, full, github, gitlab, json_, json_lines, junit, rdjson, sarif

Writer = Callable[[list[Finding], TextIO, Mapping[str | tuple[str, int], str]], None]

FORMATS: dict[str, Writer] = {
    "full": full.write,
    "concise": concise.write,
    "json": json_.write,
    "json-lines": json_lines.write,
    "github": github.write,
    # for code review: GitHub code scanning, reviewdog, GitLab merge requests, CI test reports
    "sarif": sarif.write,
    "rdjson": rdjson.write,
    "gitlab": gitlab.write,
    "junit": junit.write,
}

"""Output formats: each module writes a run's findings one way.

A writer is ``write(findings, out, sources, errors)``: the sorted findings, a text stream, the texts
the findings' lines count in (for formats that quote the source), keyed by
``Finding.source_key``: a file's text by its path; for a notebook, each code cell's own text by
(path, cell), since a notebook finding's lines are its cell's lines (``finding.cell``) and the
notebook's JSON has no such lines to quote; and the run's errors (files that could not be read
or checked, one line each, as printed after ``gradlint:``), which the formats a CI system reads
as a verdict (sarif, junit) must not show as a clean run.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib import import_module
from typing import TextIO

from gradlint.finding import Finding

Writer = Callable[[list[Finding], TextIO, Mapping[str | tuple[str, int], str], Sequence[str]], None]


class _Writers(Mapping[str, Writer]):
    """Format name → writer, each module imported when its writer is first asked for: a run
    pays only for the format it prints (rich alone would cost a single-file run a tenth of its
    time)."""

    def __init__(self, modules: dict[str, str]):
        self._modules = modules

    def __getitem__(self, name: str) -> Writer:
        return import_module(f"{__name__}.{self._modules[name]}").write

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)


FORMATS: Mapping[str, Writer] = _Writers({
    "full": "full",
    "concise": "concise",
    "json": "json_",
    "json-lines": "json_lines",
    "github": "github",
    # for code review: GitHub code scanning, reviewdog, GitLab merge requests, CI test reports
    "sarif": "sarif",
    "rdjson": "rdjson",
    "gitlab": "gitlab",
    "junit": "junit",
})

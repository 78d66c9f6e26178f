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

import dataclasses
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib import import_module
from pathlib import PurePath
from typing import TextIO

from gradlint.finding import Finding

Writer = Callable[[list[Finding], TextIO, Mapping[str | tuple[str, int], str], Sequence[str]], None]


def from_here(findings: list[Finding]) -> list[Finding]:
    """The findings, with the other files their messages name (``at x.py, line 6``) named as
    the findings' own paths are, from the current folder (``pkg/x.py``), for ``gradlint check``
    and flake8. The engine names them from the linted file's folder (``analysis.project.display``),
    the same wherever gradlint runs, so that a cached message stays true; but ``x.py`` read from
    here would be another file when the project has one at its top. Standard input (``-``) has
    no folder: its messages are left as they are."""
    shown = []
    for finding in findings:
        keys = [key for key, value in finding.details.items()
                if key.endswith("_path") and isinstance(value, str) and not os.path.isabs(value)]
        if not keys or finding.path == "-":
            shown.append(finding)
            continue
        folder = os.path.dirname(finding.path)
        names = {finding.details[key]: PurePath(os.path.normpath(os.path.join(folder, finding.details[key]))).as_posix()
                 for key in keys}
        # Longest first, and only after "(" or a space: `x.py` is not rewritten inside `../x.py`.
        named = re.compile(r"(?<=[(\s])(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
                           + r"), line ")
        message = named.sub(lambda match: f"{names[match.group(1)]}, line ", finding.message)
        details = {key: names[value] if key in keys else value for key, value in finding.details.items()}
        shown.append(dataclasses.replace(finding, message=message, details=details))
    return shown


def json_safe(value):
    """``value``, a document a JSON format writes, with every string one a strict JSON parser
    reads. A file name that is not UTF-8 (``caf\\xe9.py`` in Latin-1) reaches gradlint, as any
    Python program, with each stray byte as a lone surrogate (``\\udce9``); json writes it as that
    escape, which RFC 8259 leaves undefined: Rust's serde_json rejects the whole document, Go puts
    U+FFFD in its place, JavaScript keeps a string that is not well-formed. Each such byte is
    written ``\\xe9`` instead, as Python shows a byte: the text stays valid and readable, and the
    name can be rebuilt (``\\x`` and two hex digits from 80 to ff stand for that byte, unless the
    name itself holds those four characters). The U+FFFD ruff writes would keep the document
    valid but lose which file it was.
    """
    if isinstance(value, str):
        if value.isascii():
            return value
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        return value
    if isinstance(value, dict):
        return {json_safe(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    return value


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

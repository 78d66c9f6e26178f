"""Output formats: each module writes a run's findings one way.

A writer is ``write(findings, out, sources)``: the sorted findings, a text stream, and the text of
each file with findings by path (for formats that quote the source).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TextIO

from gradlint.finding import Finding
from gradlint.report import concise, full, github, json_, json_lines

Writer = Callable[[list[Finding], TextIO, Mapping[str, str]], None]

FORMATS: dict[str, Writer] = {
    "full": full.write,
    "concise": concise.write,
    "json": json_.write,
    "json-lines": json_lines.write,
    "github": github.write,
}

"""gradlint inside flake8: ``flake8`` reports the GLxxx findings beside its own.

flake8 finds the plugin through the ``flake8.extension`` entry point ``GL`` and, as for every
plugin of that group, runs it by default (flake8 adds the entry point's name to its
``extend-default-select``). A project whose flake8 config sets ``select`` must add the codes:
``extend-select = GL``. Selection, ``per-file-ignores``, ``# noqa`` and the output format are
flake8's; gradlint's own ``[tool.gradlint]`` config is not read here, but its in-file
suppressions (``# gradlint: ignore[...]``, ``# gradlint: skip-file``) still apply.

A file that does not parse never reaches the plugin: flake8 reports it as E999 itself.
"""
from __future__ import annotations

import ast
import functools
import os
from collections.abc import Iterator

from gradlint import __version__
from gradlint.engine import lint_source
from gradlint.report import from_here


class Plugin:
    """One file's findings, as flake8 expects them: ``(line, column, "GLxxx message", type)``
    with the line 1-based and the column 0-based (flake8 adds 1 when it prints)."""

    name = "gradlint"
    version = __version__

    # flake8 passes arguments by parameter name. ``tree`` marks this as a plugin that runs once
    # per file, after flake8 parsed it; the engine reads the text instead (it parses it with the
    # limits of its own guard), from ``lines``, which flake8 has already read and decoded, stdin
    # included.
    def __init__(self, tree: ast.AST, lines: list[str], filename: str) -> None:
        self.lines = lines
        self.filename = filename

    # The paths flake8 was given: a finding placed at a call for a site of another file that
    # flake8 also checks, and whose own lint reports that site, is that file's (one mistake, one
    # finding, as ``gradlint check`` keeps it: ``runner._one_per_site``).
    paths: tuple = (os.path.abspath("."),)

    @classmethod
    def parse_options(cls, options) -> None:
        cls.paths = tuple(os.path.abspath(p) for p in (getattr(options, "filenames", None) or ["."]))

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        found = [f for f in lint_source("".join(self.lines), self.filename) if not self._reported_at_its_site(f)]
        for finding in from_here(found):
            yield finding.line, finding.column - 1, f"{finding.code} {finding.message}", type(self)

    def _reported_at_its_site(self, finding) -> bool:
        # (the engine names the other file from this file's folder)
        origin, line = finding.details.get("origin_path"), finding.details.get("origin_line")
        if not isinstance(origin, str) or self.filename in ("-", "stdin"):
            return False
        other = os.path.abspath(os.path.join(os.path.dirname(self.filename), origin))
        if not any(other == p or other.startswith(p.rstrip(os.sep) + os.sep) for p in self.paths):
            return False
        return any(start <= line <= end for start, end in _sites(other))


@functools.lru_cache(maxsize=64)
def _sites(path: str) -> tuple:
    """The (first, last) lines of what the lint of ``path`` reports there."""
    try:
        with open(path, "rb") as handle:
            source = handle.read()
    except OSError:
        return ()
    return tuple((f.line, max(f.end_line, f.line)) for f in lint_source(source, path))

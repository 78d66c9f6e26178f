"""Lint many files: read each, lint it, and keep going when one of them fails.

``lint_file`` lints one file, a Python module or a Jupyter notebook, by its name.
``run`` is the command line's loop: a file that cannot be read, or that crashes a check, becomes
an entry in ``Run.errors`` and the other files are still linted. ``lint_paths`` is the library
call: it discovers files as ``gradlint check`` does and lets such errors raise.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from gradlint import engine, notebook, suppression
from gradlint.discovery import discover
from gradlint.finding import Finding
from gradlint.rule import resolve

STDIN = "-"


@dataclass(frozen=True)
class Target:
    """A file to lint: where its bytes come from, and the name findings carry."""

    name: str
    path: Path | None = None  # None: the bytes are given (stdin)
    source: bytes | None = None


@dataclass
class Run:
    findings: list[Finding] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # one line each, for stderr after "gradlint: "
    # The text each finding's lines count in, by ``Finding.source_key``: a file's text by path,
    # a notebook cell's text by (path, cell). Kept only for files with findings.
    sources: dict[str | tuple[str, int], str] = field(default_factory=dict)
    files_checked: int = 0


def run(targets: Iterable[Target], codes_for: Callable[[str], frozenset[str]]) -> Run:
    """Lint every target with the codes ``codes_for(name)`` allows; errors do not stop the run."""
    result = Run()
    for target in targets:
        try:
            source = target.source if target.source is not None else target.path.read_bytes()
        except OSError as err:
            result.errors.append(f"error: {target.name}: cannot read: {err.strerror or err}")
            continue
        try:
            found, texts = lint_file(source, target.name, codes_for(target.name))
        except Exception as err:  # a bug in a check must cost one file, not the whole run
            result.errors.append(
                f"internal error while checking {target.name}: "
                f"{type(err).__name__}: {err} (please report this)"
            )
            continue
        result.files_checked += 1
        if found:
            result.findings.extend(found)
            result.sources.update(texts)
    result.findings.sort()
    return result


def lint_file(source: bytes, name: str, codes: frozenset[str]) -> tuple[list[Finding], dict]:
    """One file's findings (sorted) and the texts their lines count in, by ``Finding.source_key``.

    A name ending in ``.ipynb`` is read as a Jupyter notebook (``gradlint.notebook``): its Python
    cells are linted as one module and each finding is placed in its cell. A notebook that is
    not one is GL000 at line 1; a cell that does not parse is GL000 in that cell, and the other
    cells are still checked; a notebook in another language (R, Julia) has no findings.
    """
    if not name.endswith(notebook.SUFFIX):
        return engine.lint_source(source, name, codes), {name: decode(source)}
    try:
        book = notebook.read(source)
    except notebook.NotANotebook as err:
        found = [engine.not_checked(name, 1, 1, f"the notebook was not checked: {err}")] if "GL000" in codes else []
        return found, {name: decode(source)}
    found = engine.lint_source(book.text, name, codes, locate=book.locate)
    if "GL000" in codes:
        for cell, line, column, message in book.unparsable:
            # The cell was blanked in the joined text, so its own text holds its suppressions.
            found += suppression.apply([engine.not_checked(name, line, column, message, cell=cell)],
                                       book.cells[cell])
    texts = {(name, cell): text for cell, text in book.cells.items()}
    return sorted(found), texts


def lint_paths(
    paths: str | os.PathLike | Iterable[str | os.PathLike],
    codes: str | Iterable[str] | None = None,
) -> list[Finding]:
    """Findings for the Python files and notebooks under ``paths`` (default excludes and
    .gitignore honoured).

    ``paths`` is one path or several. ``codes`` selects rules as ``--select`` does: codes,
    prefixes (``GL00``), rule names or ``ALL``, in any case (default: every rule but the
    off-by-default GL900); a selector that matches no rule raises ValueError. Unlike ``gradlint
    check`` this reads no config file, and a path that is missing or cannot be read or listed
    raises OSError.
    """
    if isinstance(paths, (str, os.PathLike)):  # a lone path, not an iterable of its characters
        paths = [paths]
    codes = resolve(codes)
    found: list[Finding] = []
    for path in discover(paths):
        found.extend(lint_file(path.read_bytes(), str(path), codes)[0])
    return sorted(found)


def decode(source: bytes) -> str:
    # UTF-8, as the engine reads it; a BOM is dropped so line 1 shows as an editor shows it.
    return source.decode("utf-8-sig", errors="replace")

"""Write ``# noqa: GLxxx`` comments: for ``--add-noqa`` and the language server's quick fix.

A comment can only go where a line ends in code: never after a backslash continuation and never
inside a string that spans lines. ``tokenize`` says which lines those are (each has its NEWLINE
or NL token), so the comment goes on the first such line of the finding's range, which is where
``gradlint.suppression`` looks for it. An existing ``# noqa: CODES`` on that line gains the new
codes; any other comment is kept and the directive follows it (flake8 reads ``# noqa`` anywhere
in a comment). Nothing is returned for a finding with no such line in its range, and a result
that no longer parses is never returned.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import defaultdict
from collections.abc import Iterable

from gradlint.finding import Finding

# ``# noqa: CODES`` whose code list can be extended in place.
_NOQA_CODES = re.compile(r"#\s*noqa:\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*)", re.IGNORECASE)
_LINE_END = re.compile(r"\r\n|\r|\n$")


def add(text: str, findings: Iterable[Finding]) -> tuple[str, list[Finding]]:
    """``text`` with a ``# noqa`` for each finding, and the findings that could not get one.

    The findings must belong to ``text`` (one file, or one notebook cell with its own lines).
    Raises nothing: a text that does not tokenize gets no comment at all.
    """
    findings = list(findings)
    ends = line_ends(text)
    if ends is None:
        return text, findings
    wanted: dict[int, set[str]] = defaultdict(set)
    placed: list[Finding] = []
    missed: list[Finding] = []
    for finding in findings:
        line = next((n for n in range(finding.line, max(finding.end_line, finding.line) + 1) if n in ends), None)
        if line is None:
            missed.append(finding)
        else:
            wanted[line].add(finding.code)
            placed.append(finding)
    lines = text.splitlines(keepends=True)
    for number, codes in wanted.items():
        lines[number - 1] = with_codes(lines[number - 1], codes, ends[number])
    new = "".join(lines)
    if not _parses(new):  # cannot happen by construction; never hand back a broken file
        return text, findings
    return new, missed


def line_edit(text: str, finding: Finding) -> tuple[int, str] | None:
    """(1-based line, that line's new text without its line break) for one finding's comment,
    or None when it cannot have one. For an editor's quick fix, which replaces a single line."""
    new, missed = add(text, [finding])
    if missed or new == text:
        return None
    old_lines, new_lines = text.splitlines(), new.splitlines()
    for number, (old, updated) in enumerate(zip(old_lines, new_lines), start=1):
        if old != updated:
            return number, updated
    return None


def line_ends(text: str) -> dict[int, int | None] | None:
    """The 1-based lines whose end is in code, so a comment may follow, each with the column of
    the comment it already has (None: no comment); None if ``text`` does not tokenize."""
    ends: dict[int, int | None] = {}
    comments: dict[int, int] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                comments[tok.start[0]] = tok.start[1]
            elif tok.type in (tokenize.NEWLINE, tokenize.NL):
                ends[tok.start[0]] = comments.get(tok.start[0])
    except (tokenize.TokenError, SyntaxError):
        return None
    return ends


def with_codes(line: str, codes: Iterable[str], comment: int | None = None) -> str:
    """``line`` (with or without its line break) carrying ``# noqa`` for ``codes`` as well;
    ``comment`` is the column where the line's comment starts, if it has one."""
    match = _LINE_END.search(line)
    ending = match.group() if match else ""
    body = line[: len(line) - len(ending)]
    existing = _NOQA_CODES.search(body, comment) if comment is not None else None
    if existing:
        have = [c for c in re.split(r"[\s,]+", existing["codes"]) if c]
        merged = have + sorted(set(codes) - {c.upper() for c in have})
        return body[: existing.start("codes")] + ", ".join(merged) + body[existing.end("codes"):] + ending
    return f"{body.rstrip()}  # noqa: {', '.join(sorted(set(codes)))}{ending}"


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True

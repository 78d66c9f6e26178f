"""Write ``# noqa: GLxxx`` comments: for ``--add-noqa`` and the language server's quick fix.

A comment can only go where a line ends in code: never after a backslash continuation and never
inside a string that spans lines. ``tokenize`` says which lines those are (each has its NEWLINE
or NL token), so the comment goes on the first such line of the finding's range, which is where
``gradlint.suppression`` looks for it. An existing ``# noqa: CODES`` on that line gains the new
codes; any other comment is kept and the directive follows it (flake8 reads ``# noqa`` anywhere
in a comment). The line's trailing whitespace stays, after the directive. Nothing is returned for a finding with no such line in its range, and a result
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
# A line may end in a lone \r (old Mac files), which Python's parser accepts and ``tokenize``
# (before 3.12) does not: it is tokenized as \n, which keeps every line and column in place.
_LONE_CR = re.compile(r"\r(?!\n)")


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
    lines = split_lines(text)
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
    for number, (old, updated) in enumerate(zip(split_lines(text), split_lines(new)), start=1):
        if old != updated:
            return number, _LINE_END.sub("", updated)
    return None


def split_lines(text: str) -> list[str]:
    """``text``'s lines with their breaks, counted as Python counts them (\\n, \\r\\n, \\r):
    ``str.splitlines`` also breaks at a form feed or U+2028, which would shift every line after
    one."""
    return io.StringIO(text, newline="").readlines()


def line_ends(text: str) -> dict[int, int | None] | None:
    """The 1-based lines whose end is in code, so a comment may follow, each with the column of
    the comment it already has (None: no comment); None if ``text`` does not tokenize."""
    ends: dict[int, int | None] = {}
    comments: dict[int, int] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(_LONE_CR.sub("\n", text)).readline):
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
        # The codes written are kept as written; the new ones follow them.
        have = {c.upper() for c in re.split(r"[\s,]+", existing["codes"]) if c}
        new = sorted(set(codes) - have)
        return body[: existing.end("codes")] + "".join(f", {c}" for c in new) + body[existing.end("codes"):] + ending
    # The comment follows the code (or the comment) directly, and the line's trailing whitespace
    # (Python's: space, tab, form feed) follows it: every byte of the line is kept, in order.
    code = body.rstrip(" \t\f")
    return f"{code}  # noqa: {', '.join(sorted(set(codes)))}{body[len(code):]}{ending}"


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True

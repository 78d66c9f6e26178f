"""Suppression comments: drop the findings a user has silenced in the source.

Three directives, all case-insensitive:

- ``# noqa`` / ``# noqa: GL001, GL002`` (flake8's convention): on any line of the finding's range.
- ``# gradlint: ignore`` / ``# gradlint: ignore[GL001, detached-result]``: on any line of the
  finding's range, or alone on the line directly above it (for lines too long for a trailing
  comment).
- ``# gradlint: skip-file``: anywhere in the file; nothing in it is reported, not even GL000.

A code also matches as a prefix (``# noqa: GL00``), as flake8 allows. Only real comments count:
``tokenize`` tells a comment from a ``"# noqa"`` inside a string. A file that does not tokenize
(it has a syntax error, and the user still wants to silence its GL000) is scanned line by line.
"""
from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

from gradlint.finding import Finding

_CODE_LIST = r"[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*"
# Like flake8, a ``# noqa:`` whose codes do not parse is a bare ``# noqa``.
_NOQA = re.compile(rf"#\s*noqa(?::\s*(?P<codes>{_CODE_LIST}))?", re.IGNORECASE)
_IGNORE = re.compile(r"#\s*gradlint:\s*ignore\b(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)
_SKIP_FILE = re.compile(r"#\s*gradlint:\s*skip-file\b", re.IGNORECASE)

# None in a directive map means "every code".
Codes = frozenset[str] | None


@dataclass
class Directives:
    skip_file: bool = False
    noqa: dict[int, Codes] = field(default_factory=dict)
    ignore: dict[int, Codes] = field(default_factory=dict)
    comment_only_lines: set[int] = field(default_factory=set)


def apply(findings: list[Finding], text: str) -> list[Finding]:
    """The findings that no suppression comment in ``text`` silences."""
    if not findings:
        return findings
    lowered = text.lower()
    if "noqa" not in lowered and "gradlint" not in lowered:  # the common case: no tokenizing
        return findings
    directives = scan(text)
    if directives.skip_file:
        return []
    return [f for f in findings if not _suppressed(f, directives)]


def scan(text: str) -> Directives:
    """Every suppression directive in ``text``, keyed by 1-based line."""
    directives = Directives()
    try:
        comments = list(_comments(text))
    except (tokenize.TokenError, SyntaxError):
        comments = list(_comments_by_line(text))
    for line, comment, alone in comments:
        if alone:
            directives.comment_only_lines.add(line)
        if _SKIP_FILE.search(comment):
            directives.skip_file = True
        for match in _NOQA.finditer(comment):
            _add(directives.noqa, line, match["codes"])
        for match in _IGNORE.finditer(comment):
            _add(directives.ignore, line, match["codes"])
    return directives


def _comments(text: str):
    """(line, comment text, whether the comment is alone on its line) for each real comment."""
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            line = tok.start[0]
            yield line, tok.string, not tok.line[: tok.start[1]].strip()


def _comments_by_line(text: str):
    # Best effort for files tokenize rejects: from the first '#' on; a '#' in a string may fool it.
    for line, source in enumerate(text.splitlines(), start=1):
        at = source.find("#")
        if at >= 0:
            yield line, source[at:], not source[:at].strip()


def _add(table: dict[int, Codes], line: int, codes_text: str | None) -> None:
    codes = _parse_codes(codes_text)
    if codes is None or table.get(line, frozenset()) is None:
        table[line] = None
    else:
        table[line] = table.get(line, frozenset()) | codes


def _parse_codes(codes_text: str | None) -> Codes:
    if codes_text is None:
        return None
    codes = frozenset(c.upper() for c in re.split(r"[\s,]+", codes_text) if c)
    # ``# gradlint: ignore[]`` names nothing; treat it as the bare form rather than as a no-op.
    return codes or None


def _matches(finding: Finding, codes: Codes) -> bool:
    if codes is None:
        return True
    return finding.name.upper() in codes or any(finding.code.startswith(c) for c in codes)


def _suppressed(finding: Finding, directives: Directives) -> bool:
    span = range(finding.line, max(finding.end_line, finding.line) + 1)
    for line in span:
        if line in directives.noqa and _matches(finding, directives.noqa[line]):
            return True
        if line in directives.ignore and _matches(finding, directives.ignore[line]):
            return True
    above = finding.line - 1
    return (
        above in directives.ignore
        and above in directives.comment_only_lines
        and _matches(finding, directives.ignore[above])
    )

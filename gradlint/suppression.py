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

``unused`` is GL900 (off by default, like ruff's RUF100): each directive code that silenced no
finding of this run, judged only for rules that ran on the file. It needs the findings before
suppression, and its own findings are then suppressed like any other, except that a directive
never silences the report about itself: only a directive that names GL900 (or a bare ``# noqa``)
silences a GL900 finding.

A code that names no gradlint rule (``# gradlint: ignore[detached-reslt]``, ``# noqa: GL01``)
silences nothing; ``unknown_rule_warnings`` says so on stderr whatever rules run, naming the
closest rule, as ruff warns of an invalid code in a ``# noqa``. Other tools' codes in a
``# noqa`` (E501, F401) are not gradlint's to judge.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from gradlint.finding import Finding
from gradlint.rule import BY_CODE, RULES

_CODE_LIST = r"[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*"
# Like flake8, a ``# noqa:`` whose codes do not parse is a bare ``# noqa``.
_NOQA = re.compile(rf"#\s*noqa(?::\s*(?P<codes>{_CODE_LIST}))?", re.IGNORECASE)
_IGNORE = re.compile(r"#\s*gradlint:\s*ignore\b(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)
_SKIP_FILE = re.compile(r"#\s*gradlint:\s*skip-file\b", re.IGNORECASE)
# What any directive with a code of gradlint's holds: files with only `# noqa: E501` (common) are
# not tokenized for ``unknown_rules``, on warm runs either.
_NAMES_RULES = re.compile(r"gradlint:\s*ignore\[|noqa:[\s,A-Z0-9]*GL", re.IGNORECASE)
_NAMES_RULES_BYTES = re.compile(_NAMES_RULES.pattern.encode(), re.IGNORECASE)

# None in a directive map means "every code".
Codes = frozenset[str] | None


UNUSED = "GL900"


@dataclass(frozen=True)
class Directive:
    """One ``# noqa`` or ``# gradlint: ignore`` as written, where it stands (1-based line, 1-based
    columns, end exclusive), for GL900 to point at."""

    kind: str  # "noqa" | "ignore"
    line: int
    column: int
    end_column: int
    text: str  # "# noqa: E501, GL001"
    codes: tuple[str, ...] | None  # as written; None: the bare form
    alone: bool  # alone on its line: an ignore also covers the line below


@dataclass
class Directives:
    skip_file: bool = False
    noqa: dict[int, Codes] = field(default_factory=dict)
    ignore: dict[int, Codes] = field(default_factory=dict)
    comment_only_lines: set[int] = field(default_factory=set)
    entries: list[Directive] = field(default_factory=list)


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
    import tokenize  # here: a warm run whose files name no rule never tokenizes

    directives = Directives()
    try:
        comments = list(_comments(text))
    except (tokenize.TokenError, SyntaxError):
        comments = list(_comments_by_line(text))
    for line, column, comment, alone in comments:
        if alone:
            directives.comment_only_lines.add(line)
        if _SKIP_FILE.search(comment):
            directives.skip_file = True
        for kind, pattern, table in (("noqa", _NOQA, directives.noqa), ("ignore", _IGNORE, directives.ignore)):
            for match in pattern.finditer(comment):
                _add(table, line, match["codes"])
                written = match["codes"]
                codes = tuple(c for c in re.split(r"[\s,]+", written.strip()) if c) if written else ()
                directives.entries.append(Directive(
                    kind, line, column + match.start() + 1, column + match.end() + 1, match.group(),
                    codes or None, alone))
    return directives


def _comments(text: str):
    """(line, 0-based column, comment text, whether the comment is alone on its line) for each
    real comment."""
    # A lone \r ends a line for Python but not for ``tokenize`` before 3.12: read it as \n, which
    # keeps every line and column in place.
    import io
    import tokenize

    for tok in tokenize.generate_tokens(io.StringIO(re.sub(r"\r(?!\n)", "\n", text)).readline):
        if tok.type == tokenize.COMMENT:
            line = tok.start[0]
            yield line, tok.start[1], tok.string, not tok.line[: tok.start[1]].strip()


def _comments_by_line(text: str):
    # Best effort for files tokenize rejects: from the first '#' on; a '#' in a string may fool it.
    for line, source in enumerate(re.split(r"\r\n|\r|\n", text), start=1):  # Python's line breaks only
        at = source.find("#")
        if at >= 0:
            yield line, at, source[at:], not source[:at].strip()


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


def _matches(finding: Finding, codes: Codes, bare: bool = True) -> bool:
    """Whether ``codes`` names the finding's rule; the bare form (None) matches when ``bare``."""
    if codes is None:
        return bare
    return finding.name.upper() in codes or any(finding.code.startswith(c) for c in codes)


def _suppressed(finding: Finding, directives: Directives) -> bool:
    # A bare ``# gradlint: ignore`` that silenced nothing is what a GL900 finding reports: it
    # must not silence that report.
    ignore_all = finding.code != UNUSED
    span = range(finding.line, max(finding.end_line, finding.line) + 1)
    for line in span:
        if line in directives.noqa and _matches(finding, directives.noqa[line]):
            return True
        if line in directives.ignore and _matches(finding, directives.ignore[line], ignore_all):
            return True
    above = finding.line - 1
    return (
        above in directives.ignore
        and above in directives.comment_only_lines
        and _matches(finding, directives.ignore[above], ignore_all)
    )


def unused(findings: list[Finding], text: str, path: str, ran: frozenset[str]) -> list[Finding]:
    """GL900 findings for ``text``: one per directive with a code that silenced none of
    ``findings`` (all of the file's findings, before suppression), located at the directive.

    ``ran`` is the codes of the rules that ran on the file; a code is judged only when every rule
    it names ran (a prefix names several), so codes of unselected or per-file-ignored rules, and
    other tools' codes in a ``# noqa`` (E501, F401), are never reported; a code that names no
    gradlint rule is. A bare ``# noqa`` may be for another tool and is never reported; a bare
    ``# gradlint: ignore`` is judged when every rule but GL900 ran. Codes naming GL900 itself
    are not judged. Raises nothing; a file with ``# gradlint: skip-file`` gets none.
    """
    lowered = text.lower()
    if "noqa" not in lowered and "gradlint" not in lowered:
        return []
    directives = scan(text)
    if directives.skip_file:
        return []
    rule = BY_CODE[UNUSED]
    found = []
    for directive in directives.entries:
        reasons, stale = _unused_codes(directive, findings, ran)
        if not reasons:
            continue
        judged_all = directive.codes is None or len(stale) == len(directive.codes)
        hint = (f"delete `{directive.text}`: it silences nothing" if judged_all else
                f"remove {' and '.join(f'`{c}`' for c in stale)} from `{directive.text}`")
        found.append(Finding(
            path=path, line=directive.line, column=directive.column, code=rule.code,
            end_line=directive.line, end_column=directive.end_column, name=rule.name,
            message=f"unused suppression: {directive.text} ({'; '.join(reasons)})",
            hint=hint + " (to keep it anyway, add `# noqa: GL900` to the line)",
            severity=rule.severity, details={"directive": directive.text, "unused": list(stale)},
        ))
    return found


def _unused_codes(directive: Directive, findings: list[Finding], ran: frozenset[str]) -> tuple[list[str], list[str]]:
    """(why, for the message; the unused codes as written) for one directive."""
    target = directive.line + 1 if directive.kind == "ignore" and directive.alone else directive.line
    covered = [f for f in findings if _covers(directive, f)]
    if directive.codes is None:
        every = frozenset(BY_CODE) - {UNUSED}
        if directive.kind == "noqa" or not every <= ran or covered:
            return [], []
        return [f"no finding on line {target}"], []
    unknown, idle = [], []
    for code in directive.codes:
        upper = code.upper()
        if directive.kind == "noqa" and not upper.startswith("GL"):
            continue  # another tool's code
        named = {r.code for r in RULES if r.code.startswith(upper) or r.name.upper() == upper}
        if not named:
            unknown.append(code)
        elif UNUSED not in named and named <= ran and not any(_matches(f, frozenset({upper})) for f in covered):
            idle.append(code)
    reasons = []
    if idle:
        reasons.append(f"no {' or '.join(idle)} finding on line {target}")
    reasons += [f"{code} is not a gradlint rule" for code in unknown]
    return reasons, idle + unknown


def unknown_rules(text: str) -> list[tuple[int, str, str, str | None]]:
    """(line, code as written, the directive as written, the closest rule code or name or None)
    for each code of a ``# gradlint: ignore[...]``, and each GL code of a ``# noqa``, that names
    no gradlint rule, by code, prefix or name. None in a file with ``# gradlint: skip-file``."""
    if not may_name_rules(text):  # the common case: no tokenizing
        return []
    directives = scan(text)
    if directives.skip_file:
        return []
    found = []
    for directive in sorted(directives.entries, key=lambda d: (d.line, d.column)):
        for code in directive.codes or ():
            upper = code.upper()
            if directive.kind == "noqa" and not upper.startswith("GL"):
                continue  # another tool's code
            if not any(r.code.startswith(upper) or r.name.upper() == upper for r in RULES):
                found.append((directive.line, code, directive.text, _closest(code)))
    return found


def may_name_rules(text: str | bytes) -> bool:
    """Whether ``text`` (or a file's bytes) may hold a directive with a code of gradlint's."""
    # A case-insensitive search with an alternation scans at ~60 ns a byte (0.9 s over a
    # 15 MB corpus, most of a warm run); both branches start with a literal, which lowering
    # and ``in`` find at memory speed, so the regex runs only on the few files holding one.
    # Lowering matches IGNORECASE only for ASCII: in a str, 'İ' and 'ı' match 'i' too.
    if isinstance(text, bytes):
        lowered, pattern = text.lower(), _NAMES_RULES_BYTES
        if b"noqa:" not in lowered and b"gradlint:" not in lowered:
            return False
    else:
        pattern = _NAMES_RULES
        if text.isascii():
            lowered = text.lower()
            if "noqa:" not in lowered and "gradlint:" not in lowered:
                return False
    return pattern.search(text) is not None


def unknown_rule_warnings(texts: dict[str | tuple[str, int], str]) -> list[str]:
    """One line per code ``unknown_rules`` finds in ``texts`` (a file's text by its name, a
    notebook cell's by (name, cell), as ``runner.lint_file`` gives them), placed as the concise
    format places a finding."""
    warnings = []
    for key, text in texts.items():
        where = key if isinstance(key, str) else f"{key[0]}:cell {key[1]}"
        for line, code, directive, close in unknown_rules(text):
            hint = f" (did you mean '{close}'?)" if close else ""
            warnings.append(f"{where}:{line}: unknown rule '{code}' in `{directive}`{hint}: "
                            "it silences nothing")
    return warnings


def _closest(code: str) -> str | None:
    spellings = {rule.code.lower(): rule.code for rule in RULES} | {rule.name: rule.name for rule in RULES}
    import difflib

    close = difflib.get_close_matches(code.lower(), spellings, n=1)
    return spellings[close[0]] if close else None


def _covers(directive: Directive, finding: Finding) -> bool:
    """Whether ``directive`` stands where it could silence ``finding``."""
    if finding.line <= directive.line <= max(finding.end_line, finding.line):
        return True
    return directive.kind == "ignore" and directive.alone and directive.line == finding.line - 1

"""The rule catalogue: each rule's code, name and one-line summary, and the selectors.

A rule's words live in one place, ``rules/GLxxx-name.md``; ``gradlint rule`` renders it, the
tests run its examples. Everything else about a rule (its metadata, check, probes and verdict)
is its module in ``gradlint/checks/``; the catalogue is built from those modules.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from gradlint import checks
from gradlint.checks import Rule
from gradlint.finding import Severity

def _doc_folders() -> list[Path]:
    here = Path(__file__).resolve().parent
    # A wheel carries the catalogue inside the package; a source checkout has it at the top.
    return [here / "_rules", here.parent / "rules"]


# The engine's own rules, which no check raises: a file not read (GL000, GL010), a suppression
# that silenced nothing (GL900). Every other rule is a module of ``checks/``.
_ENGINE = (
    Rule("GL000", "syntax-error", "The file does not parse, so nothing in it was checked.", Severity.ERROR),
    Rule("GL010", "parser-limit", "Python accepts the file, but it is too large or too complex for gradlint's parser, or in syntax the parser cannot read, so nothing in it was checked.", Severity.ERROR),
    Rule("GL900", "unused-suppression", "A `# noqa: GL…` or `# gradlint: ignore` that silenced nothing in this run (off by default).", default=False),
)

RULES: tuple[Rule, ...] = tuple(sorted((*_ENGINE, *(module.RULE for module in checks.MODULES)),
                                       key=lambda rule: rule.code))

BY_CODE = {rule.code: rule for rule in RULES}
# A file that was not checked is said whatever rules are selected (as ruff reports a syntax error
# under any --select): "no findings" of a file nothing read would be false. Only an ignore
# (`--ignore GL000`, per-file-ignores) or excluding the file quiets it.
UNCHECKED_CODES = frozenset({"GL000", "GL010"})
DEFAULT_CODES = frozenset(rule.code for rule in RULES if rule.default)


def select_codes(select: Iterable[str] | None, ignore: Iterable[str] | None) -> frozenset[str]:
    """Resolve ``--select``/``--ignore`` selectors to rule codes.

    A selector is a code or a prefix of codes (``GL001``, ``GL00``), a rule name
    (``detached-result``) or ``ALL``, in any case. ``select=None`` means the default rules (every
    rule but the off-by-default GL900, which a selector must name); an empty ``select`` means none. Raises ValueError naming, as written, a selector that matches no rule.
    """
    chosen = _expand(select) if select is not None else set(DEFAULT_CODES)
    return frozenset(chosen - _expand(ignore or []))


def _expand(selectors: Iterable[str]) -> set[str]:
    codes: set[str] = set()
    for selector in selectors:
        selector = selector.strip()
        if not selector:
            continue
        matched = _matching(selector)
        if not matched:
            raise ValueError(f"unknown rule selector {selector!r} (rules are {', '.join(BY_CODE)})")
        codes |= matched
    return codes


def _matching(selector: str) -> set[str]:
    upper, lower = selector.upper(), selector.lower()
    if upper == "ALL":
        return set(BY_CODE)
    return {rule.code for rule in RULES if rule.code.startswith(upper) or rule.name == lower}


def resolve(codes: str | Iterable[str] | None) -> frozenset[str]:
    """The library's ``codes`` argument as rule codes: selectors as for ``select_codes``, a
    string read as a comma-separated list (``"GL001,GL005"``), None for the default rules; a
    file that was not checked is reported under any selection (``UNCHECKED_CODES``)."""
    if isinstance(codes, str):
        codes = codes.split(",")
    return select_codes(None if codes is None else list(codes), None) | UNCHECKED_CODES

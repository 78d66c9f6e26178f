"""The rule catalogue: each rule's code, name and one-line summary, and its document in ``rules/``.

A rule's words live in one place, ``rules/GLxxx-name.md``; ``gradlint rule`` renders it, the
tests run its examples. The check that implements a rule lives in ``gradlint/checks/``.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from gradlint.finding import Severity


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    summary: str
    severity: Severity = Severity.WARNING
    # Off by default (like ruff's RUF100): run only when a selector names it (its code, a prefix
    # of it, its name, ALL), never by ``select`` left unset.
    default: bool = True

    @property
    def doc_path(self) -> Path | None:
        for folder in _doc_folders():
            path = folder / f"{self.code}-{self.name}.md"
            if path.is_file():
                return path
        return None

    def doc(self) -> str:
        """The rule's Markdown document; raises FileNotFoundError if the install lacks it."""
        path = self.doc_path
        if path is None:
            raise FileNotFoundError(f"no document for {self.code} ({self.name})")
        return path.read_text(encoding="utf-8")


def _doc_folders() -> list[Path]:
    here = Path(__file__).resolve().parent
    # A wheel carries the catalogue inside the package; a source checkout has it at the top.
    return [here / "_rules", here.parent / "rules"]


RULES: tuple[Rule, ...] = (
    Rule("GL000", "syntax-error", "The file does not parse, so nothing in it was checked.", Severity.ERROR),
    Rule("GL001", "detached-result", "A detached tensor is returned or becomes the loss, so the parameters upstream of it get no gradient."),
    Rule("GL002", "python-roundtrip", "A tensor is rebuilt from values pulled out of tensors and made to require grad; the history before it is lost."),
    Rule("GL003", "requires-grad-after-no-grad", "requires_grad is switched on for a tensor made without autograd history; the parameters that produced it still get no gradient."),
    Rule("GL004", "retain-graph-in-loop", "backward(retain_graph=True) in a loop keeps a graph alive past its iteration; it grows, and gradients include earlier steps."),
    Rule("GL005", "inplace-on-saved", "An in-place edit of a tensor that an earlier recorded op saved for backward."),
    Rule("GL010", "parser-limit", "Python accepts the file, but it is too large or too complex for gradlint's parser, or in syntax the parser cannot read, so nothing in it was checked.", Severity.ERROR),
    Rule("GL900", "unused-suppression", "A `# noqa: GL…` or `# gradlint: ignore` that silenced nothing in this run (off by default).", default=False),
)

BY_CODE = {rule.code: rule for rule in RULES}
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
    string read as a comma-separated list (``"GL001,GL005"``), None for the default rules."""
    if isinstance(codes, str):
        codes = codes.split(",")
    return select_codes(None if codes is None else list(codes), None)

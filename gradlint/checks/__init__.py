"""One module per rule, and what they share.

A rule module holds everything about its rule: ``RULE`` (its code, name, summary and
severity: its entry in the catalogue, ``rule.RULES``), ``check(facts)`` (the flags it raises
from the facts of one module), ``probe(probes, flag)`` (where the dynamic pass places its
probes: ``dynamic/instrument.py``), ``EVIDENCE`` (the kinds of evidence the tracer gathers for
its findings: ``dynamic/evidence.KINDS``) and ``decide(tracer, evidence)`` (the dynamic pass's
verdict, from that evidence). Its document is ``rules/GLxxx-name.md``, its
programs ``fixtures/GLxxx/``. A rule is registered by its line in ``MODULES``.

A rule module's top level imports nothing but ``ast`` and this package: ``gradlint.rule``
builds the catalogue from the modules when the CLI starts, before it knows whether anything
will be checked, so the model (``gradlint.analysis``), libcst and torch are imported inside
the functions that use them.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
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
        from gradlint.rule import _doc_folders  # where the documents are is the catalogue's to say

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


@dataclass(frozen=True)
class Flag:
    """What a check yields: a rule's finding on an ``ast`` node, before the engine places it
    (line, column, the lines its refs name) and it becomes a ``finding.Finding``."""

    rule: Rule
    node: ast.AST  # an expression or statement: it has a position
    message: str
    hint: str = ""
    details: dict = field(default_factory=dict, hash=False, compare=False)
    # Other nodes the message names by line: "line {key}" in the message becomes the line of
    # refs[key] (the first line, for a tuple of nodes), "cell 2, line 4" in a notebook when
    # that line is in another cell. Lines are known only after positions.
    refs: dict = field(default_factory=dict, hash=False, compare=False)
    # Where the finding is placed, where that is not ``node`` (which the dynamic pass probes): a
    # no_grad region's cut is reported at the region's ``with``, where recording stops.
    at: ast.AST | None = field(default=None, hash=False, compare=False)

    def extent(self) -> tuple[ast.AST, ast.AST]:
        """The nodes a finding runs from and to: a region's finding from its ``with`` to the end
        of the expression computed there, so it covers both lines."""
        start = self.at or self.node
        follows = (self.node.lineno, self.node.col_offset) >= (start.lineno, start.col_offset)
        return start, self.node if follows else start


def starved_names(upstream, models=()) -> tuple[list[str], str, str]:
    """What a cut starves, as a message names it: (the names, the phrase, its verb). A parameter
    taken to be a model is keyed ``model@train``: the name the user wrote is shown."""
    names = sorted({name.split("@")[0] for name in upstream})
    # (`policy.mean` beside `policy`: the member is the module's own, named once)
    names = [n for n in names if not any(n.startswith(m + ".") for m in names if m != "self")]
    shown = {name.split("@")[0]: name for name in sorted(upstream)}  # one spelling, whatever the set's order
    phrase = ", ".join(
        "this module's parameters (`self`)" if name == "self"
        else f"whatever computed `{name}`" if shown[name].endswith("@input")
        else f"`{name}`" for name in names)
    verb = "gets" if len(names) == 1 and "self" not in names else "get"
    # A helper's inputs (`fake_feats@input`) computed by the caller's models: name those an
    # optimizer is given, as the caller wrote them.
    models = [m for m in models if m not in names]
    if models and all(shown[name].endswith("@input") for name in names):
        phrase = ", ".join(f"`{m}`" for m in models) + " (through " + ", ".join(f"`{n}`" for n in names) + ")"
        verb = "gets" if len(models) == 1 else "get"
    return names, phrase, verb


def optimized_first(upstream, facts) -> set:
    """Of what a cut starves, the models an optimizer holds, as the callers name them (`gen`,
    not `data_iter`, which the loop that fed `gen` iterated), where there are some; else all."""
    kept = {name for name in upstream if facts.resolve({name}) & facts.optimized}
    return kept if kept and any(not name.endswith("@input") for name in kept) else set(upstream)


# The rule modules, in catalogue order: one line registers a rule. (Imported after the names
# above, which the modules import from here.)
from gradlint.checks import detached_result  # noqa: E402
from gradlint.checks import python_roundtrip  # noqa: E402
from gradlint.checks import requires_grad_after_no_grad  # noqa: E402
from gradlint.checks import retain_graph_in_loop  # noqa: E402
from gradlint.checks import inplace_on_saved  # noqa: E402

MODULES = (detached_result, python_roundtrip, requires_grad_after_no_grad, retain_graph_in_loop, inplace_on_saved)
BY_CODE = {module.RULE.code: module for module in MODULES}

"""One module per rule. Each has ``RULE`` (its entry in the catalogue) and
``check(facts) -> Iterable[Report]``; the engine turns reports into positioned findings."""
from __future__ import annotations

from dataclasses import dataclass, field

import ast

from gradlint.rule import Rule


@dataclass(frozen=True)
class Report:
    rule: Rule
    node: ast.AST  # an expression or statement: it has a position
    message: str
    hint: str = ""
    details: dict = field(default_factory=dict, hash=False, compare=False)
    # Other sites the message names by line: "line {key}" in the message becomes the line of
    # refs[key] (the first line, for a tuple of nodes), "cell 2, line 4" in a notebook when
    # that line is in another cell. Lines are known only after positions.
    refs: dict = field(default_factory=dict, hash=False, compare=False)


def _checks():
    from gradlint.checks import (
        detached_result, inplace_on_saved, python_roundtrip, requires_grad_after_no_grad,
        retain_graph_in_loop,
    )
    return (detached_result, python_roundtrip, requires_grad_after_no_grad, retain_graph_in_loop, inplace_on_saved)


CHECKS = _checks()

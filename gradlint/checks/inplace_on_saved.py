"""GL005 inplace-on-saved: an in-place edit of a tensor that an earlier recorded op saved for
backward.

``v = u ** 2`` saves ``u``; ``u.add_(1)`` afterwards moves ``u``'s version counter and backward()
fails (or, where the check is bypassed, computes a wrong gradient). ``v = u + 1`` saves nothing,
so the same edit is harmless. Which op saves which operand is measured from torch by
``tools/gen_saved_tensors.py``, not typed by hand.

PyTorch: https://pytorch.org/docs/stable/notes/autograd.html#in-place-correctness-checks
"""
from __future__ import annotations

import ast

from gradlint.analysis.tree import walk_with_ends
from gradlint.checks import Report
from gradlint.rule import BY_CODE

RULE = BY_CODE["GL005"]


def _hint(edit, facts) -> str:
    """The out-of-place spelling of this edit."""
    how = edit.how
    if edit.via_data:
        return f"compute a new tensor instead of writing through `{edit.name}.data`"
    if isinstance(how, tuple):  # `x += y` or `x[i] = y`
        target, suffix = how
        if isinstance(target, ast.Subscript):
            return f"assign into a copy instead: `{edit.name} = {edit.name}.clone()` before the assignment"
        return f"write it out of place: `{edit.name} = {edit.name} {suffix.split()[0][:-1]} …`"
    if isinstance(how, ast.Call) and any(k.arg == "inplace" for k in how.keywords):
        return "drop inplace=True"
    if isinstance(how, ast.Call) and any(k.arg == "out" for k in how.keywords):
        return "drop out= and bind the result to a new name"
    if isinstance(how, ast.Call) and isinstance(how.func, ast.Attribute) and how.func.attr.endswith("_"):
        method = how.func.attr
        return f"use the out-of-place `{method[:-1]}`: `{edit.name} = {edit.name}.{method[:-1]}(...)`"
    return "drop inplace=True, or apply it to a `.clone()`"


def check(facts):
    order = None
    for edit in facts.edits:
        if not edit.saved:
            continue
        saves = list(edit.saved)
        if len(saves) > 1:
            # In source order, then by op: the records are a set hashed by node identity, whose
            # order changes from run to run, and the message must not.
            if order is None:
                order = {id(node): i for i, node in enumerate(walk_with_ends(facts.module)[0])}
            saves.sort(key=lambda s: (order.get(id(s.node), len(order)), s.op))
        how = facts.code(edit.how)
        refs = {f"save{i}": save.node for i, save in enumerate(saves)}
        by = " and ".join(f"`{save.op}` (line {{save{i}}})" for i, save in enumerate(saves))
        consequence = ("`.data` hides the edit from the version counter, so backward() silently "
                       "uses the edited values and computes a wrong gradient" if edit.via_data else
                       "backward() will fail with \"modified by an inplace operation\"")
        yield Report(
            RULE, edit.node,
            f"`{how}` modifies `{edit.name}` in place, but {by} saved it for backward: {consequence}",
            hint=_hint(edit, facts),
            details={"tensor": edit.name, "saved_by": [s.op for s in saves]},
            refs=refs,
        )
    for step in facts.steps:
        yield Report(
            RULE, step.node,
            f"`{step.optimizer}.step()` edits the parameters in place between two backward calls "
            f"through one graph: `{step.root}` (backward at line {{second}}) was computed before the step, "
            f"and its graph saved the old parameter values",
            hint="call every backward first and step the optimizers after, or recompute the second loss after the step",
            details={"optimizer": step.optimizer, "root": step.root},
            refs={"second": step.second},
        )
    for edit in facts.sequential_edits:
        module, previous = facts.code(edit.module), facts.code(edit.previous)
        yield Report(
            RULE, edit.node,
            f"`{module}` edits in place the output of `{previous}`, which saved it for backward: "
            f"backward() will fail with \"modified by an inplace operation\"",
            hint="drop inplace=True here",
            details={"module": module, "previous": previous},
        )

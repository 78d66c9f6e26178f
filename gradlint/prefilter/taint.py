"""A flow-insensitive taint within one scope, as the walker carries a value's marks (cuts, pulls,
rebuilds) through names: every name bound from an expression that holds a source or names a
tainted name (or a prefix of one) is tainted, and so is the receiver of a method that fills it
or edits it in place (``Walker.method_call``), until nothing changes. The order of statements is
ignored, which only adds taint."""
from __future__ import annotations

import ast
from collections.abc import Callable

from gradlint.prefilter.tables import dotted

# Methods that put their argument into the receiver (``Walker.method_call``).
FILLS = frozenset({"append", "extend", "insert"})


class Taint:
    """``read(expr)`` → (whether ``expr`` holds a source itself, the names and chain prefixes it
    reads)."""

    def __init__(self, scope, start: frozenset, read: Callable[[ast.AST], tuple[bool, frozenset]]):
        self.scope = scope
        self.read = read
        self.tainted: set[str] = set(start)
        self.facts: dict[int, tuple[bool, frozenset]] = {}
        flows = []  # (names bound, expressions their value is computed from)
        for node in scope.nodes:
            kind = type(node)
            if kind is ast.Assign:
                flows.append((targets(node.targets), [node.value]))
            elif kind is ast.AnnAssign and node.value is not None:
                flows.append((targets([node.target]), [node.value]))
            elif kind is ast.AugAssign:
                flows.append((targets([node.target]), [node.value, node.target]))
            elif kind is ast.For or kind is ast.AsyncFor or kind is ast.comprehension:
                flows.append((targets([node.target]), [node.iter]))
            elif kind is ast.withitem and node.optional_vars is not None:
                flows.append((targets([node.optional_vars]), [node.context_expr]))
            elif kind is ast.NamedExpr:
                flows.append((targets([node.target]), [node.value]))
            elif kind is ast.Call and type(node.func) is ast.Attribute:
                receiver = dotted(node.func.value)
                method = node.func.attr
                if receiver is not None and (method in FILLS or (method.endswith("_") and not method.endswith("__"))):
                    # `hs.append(h.detach())`, `h.detach_()`, `buf.copy_(x.data)`: the receiver holds it
                    flows.append(({receiver}, [node]))
        grew = True
        while grew:
            grew = False
            for names, exprs in flows:
                if not names <= self.tainted and any(self.holds(e) for e in exprs):
                    self.tainted |= names
                    grew = True

    def holds(self, expr) -> bool:
        """Whether a value computed by ``expr`` may hold a source's mark."""
        found = self.facts.get(id(expr))
        if found is None:
            found = self.facts[id(expr)] = self.read(expr)
        source, names = found
        return source or not names.isdisjoint(self.tainted)


def targets(targets) -> set[str]:
    """Every name a target may bind or fill: names and attribute chains, with a subscript's base."""
    found = set()
    stack = list(targets)
    while stack:
        target = stack.pop()
        kind = type(target)
        if kind is ast.Name or kind is ast.Attribute:
            name = dotted(target)
            if name:
                found.add(name)
            elif kind is ast.Attribute:
                stack.append(target.value)
        elif kind is ast.Subscript or kind is ast.Starred:
            stack.append(target.value)
        elif kind is ast.Tuple or kind is ast.List:
            stack.extend(target.elts)
    return found

"""A fast pre-order walk over ``ast`` nodes, in source order.

``ast.walk`` is breadth-first and ``ast.iter_child_nodes`` yields a dict's keys before its
values and a conditional expression's test before its body; the scans here need parents
before children in the order the source reads. Contexts (``Load``/``Store``) and operators are
not nodes of the source and are skipped.
"""
from __future__ import annotations

import ast
import bisect
import contextlib
from typing import Iterator

_NOT_SOURCE = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


def _fields(cls: type) -> tuple[str, ...]:
    if cls is ast.IfExp:
        return ("body", "test", "orelse")
    names = tuple(f for f in cls._fields if f not in ("ctx", "op", "ops", "type_comment"))
    if cls in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
        # Decorators come first in the source.
        names = ("decorator_list",) + tuple(f for f in names if f != "decorator_list")
    return names


_FIELDS: dict[type, tuple[str, ...]] = {}


def children(node: ast.AST) -> list[ast.AST]:
    """The node's direct children, in source order."""
    cls = type(node)
    if cls is ast.Dict:  # keys and values interleaved; a ``**x`` entry has no key
        found = []
        for key, value in zip(node.keys, node.values):
            if key is not None:
                found.append(key)
            found.append(value)
        return found
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = _fields(cls)
    found = []
    for name in names:
        value = getattr(node, name, None)
        if type(value) is list:
            found.extend(v for v in value if isinstance(v, ast.AST) and not isinstance(v, _NOT_SOURCE))
        elif isinstance(value, ast.AST) and not isinstance(value, _NOT_SOURCE):
            found.append(value)
    return found


# (id of root, into_functions) → (root, its walk): the scans walk the same functions several
# times each, so inside ``memoized()`` each walk is made once, and a walk inside a module already
# walked is cut from the module's ("orders": its ``_Order``). The root is kept beside its id so
# a reused id can never return another node's walk.
_memo: dict[tuple, tuple] | None = None


@contextlib.contextmanager
def memoized():
    """Remember every walk made until the block ends (for one module's analysis: the tree must
    not change meanwhile)."""
    global _memo
    outer = _memo
    if outer is None:
        _memo = {}
    try:
        yield
    finally:
        _memo = outer


SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def iter_nodes(root: ast.AST, *, into_functions: bool = True) -> Iterator[ast.AST]:
    """Every node under ``root`` (itself included), parents before children, in source order.
    With ``into_functions=False`` the bodies of nested functions, lambdas and classes are not
    entered (the nested scope's own node is)."""
    if _memo is None:
        return iter(_walk(root, into_functions))
    key = (id(root), into_functions)
    hit = _memo.get(key)
    if hit is None or hit[0] is not root:
        if type(root) is ast.Module and into_functions:
            order = _Order(root)
            _memo.setdefault("orders", []).append(order)
            found = order.nodes
        else:
            found = _from_a_module(root, into_functions)
            if found is None:
                found = _walk(root, into_functions)
        hit = _memo[key] = (root, found)
    return iter(hit[1])


class _Order:
    """A module's nodes in walk order, with where each node's subtree ends: the walk of any node
    in it is then a slice of this one (less the bodies of nested scopes), not a walk of its own."""

    def __init__(self, module: ast.Module):
        self.nodes = nodes = []
        self.ends: list[int] = []
        self.at: dict[int, int] = {}
        self.scopes: list[int] = []  # positions of the functions, lambdas and classes
        ends, at, scopes, opened = self.ends, self.at, self.scopes, []
        stack: list = [module]
        while stack:
            node = stack.pop()
            if node is _END:
                ends[opened.pop()] = len(nodes)
                continue
            here = len(nodes)
            nodes.append(node)
            ends.append(here + 1)
            at[id(node)] = here
            if type(node) in SCOPES:
                scopes.append(here)
            below = children(node)
            if below:
                opened.append(here)
                stack.append(_END)
                below.reverse()
                stack.extend(below)

    def walk(self, root: ast.AST, into_functions: bool) -> list[ast.AST] | None:
        start = self.at.get(id(root))
        if start is None or self.nodes[start] is not root:
            return None
        end = self.ends[start]
        if into_functions:
            return self.nodes[start:end]
        found, scopes, ends, nodes = [], self.scopes, self.ends, self.nodes
        cursor = start
        i = bisect.bisect_right(scopes, start)
        while i < len(scopes) and scopes[i] < end:
            inner = scopes[i]
            found.extend(nodes[cursor:inner + 1])  # the nested scope's node, not its body
            cursor = ends[inner]
            i = bisect.bisect_left(scopes, cursor, i)
        found.extend(nodes[cursor:end])
        return found


_END = object()  # on the walk's stack: the subtree of the last node opened ends here


def walk_with_ends(module: ast.Module) -> tuple[list[ast.AST], list[int]]:
    """The module's nodes in ``iter_nodes`` order, and for each the position where its subtree
    ends (exclusive): a scan that needs each node's enclosing context reads these in one pass."""
    iter_nodes(module)
    for order in (_memo or {}).get("orders", ()):
        if order.nodes and order.nodes[0] is module:
            return order.nodes, order.ends
    order = _Order(module)
    return order.nodes, order.ends


def _from_a_module(root: ast.AST, into_functions: bool) -> list[ast.AST] | None:
    for order in _memo.get("orders", ()):
        found = order.walk(root, into_functions)
        if found is not None:
            return found
    return None


def _walk(root: ast.AST, into_functions: bool) -> list[ast.AST]:
    # A walk of its own: outside memoized(), or of a node no memoized module holds.
    found = []
    stack = [root]
    while stack:
        node = stack.pop()
        found.append(node)
        if not into_functions and type(node) in SCOPES and node is not root:
            continue
        stack.extend(reversed(children(node)))
    return found

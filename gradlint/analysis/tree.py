"""A fast pre-order walk over libcst nodes.

``CSTNode.visit`` rebuilds every node it passes (it is a transformer underneath) and costs more
than the parse. The scans here only read, so they iterate each node's child fields directly,
skipping whitespace, commas and parentheses.
"""
from __future__ import annotations

import bisect
import contextlib
from dataclasses import fields
from functools import lru_cache
from typing import Iterator

import libcst as cst

_SKIP = ("whitespace", "lpar", "rpar", "comma", "semicolon", "leading_lines", "lines_after",
         "header", "footer", "colon", "equal", "dot", "star", "lbracket", "rbracket", "lbrace",
         "rbrace", "newline", "indent", "operator", "asynchronous", "first_line", "trailing")


@lru_cache(maxsize=None)
def _child_fields(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls) if not f.name.startswith(_SKIP))


# type → 1 a node, 2 a sequence, 0 anything else. ``isinstance(v, cst.CSTNode)`` goes through
# ABCMeta's check on every call, and the walks below make it hundreds of thousands of times.
_KIND: dict[type, int] = {tuple: 2, list: 2, str: 0, type(None): 0, bool: 0, int: 0}


def _kind(cls: type) -> int:
    kind = _KIND.get(cls)
    if kind is None:
        kind = _KIND[cls] = 1 if issubclass(cls, cst.CSTNode) else 0
    return kind


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The node's direct children, in source order."""
    found = []
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        kind = _kind(type(value))
        if kind == 1:
            found.append(value)
        elif kind == 2:
            found.extend(v for v in value if _kind(type(v)) == 1)
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


def iter_nodes(root: cst.CSTNode, *, into_functions: bool = True) -> Iterator[cst.CSTNode]:
    """Every node under ``root`` (itself included), parents before children, in source order.
    With ``into_functions=False`` the bodies of nested functions, lambdas and classes are not entered."""
    if _memo is None:
        return iter(_walk(root, into_functions))
    key = (id(root), into_functions)
    hit = _memo.get(key)
    if hit is None or hit[0] is not root:
        if type(root) is cst.Module and into_functions:
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

    def __init__(self, module: cst.Module):
        self.nodes = nodes = []
        self.ends: list[int] = []
        self.at: dict[int, int] = {}
        self.scopes: list[int] = []  # positions of the functions, lambdas and classes
        ends, at, scopes, opened = self.ends, self.at, self.scopes, []
        stack: list = [module]
        kinds = _KIND
        while stack:
            node = stack.pop()
            if node is _END:
                ends[opened.pop()] = len(nodes)
                continue
            here = len(nodes)
            nodes.append(node)
            ends.append(here + 1)
            at[id(node)] = here
            cls = type(node)
            if cls in _SCOPES:
                scopes.append(here)
            below = []
            for name in _child_fields(cls):
                value = getattr(node, name)
                kind = kinds.get(type(value))
                if kind is None:
                    kind = _kind(type(value))
                if kind == 1:
                    below.append(value)
                elif kind == 2:
                    for item in value:
                        kind = kinds.get(type(item))
                        if kind == 1 or (kind is None and _kind(type(item)) == 1):
                            below.append(item)
            if below:
                opened.append(here)
                stack.append(_END)
                below.reverse()
                stack.extend(below)

    def walk(self, root: cst.CSTNode, into_functions: bool) -> list[cst.CSTNode] | None:
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


def walk_with_ends(module: cst.Module) -> tuple[list[cst.CSTNode], list[int]]:
    """The module's nodes in ``iter_nodes`` order, and for each the position where its subtree
    ends (exclusive): a scan that needs each node's enclosing context reads these in one pass."""
    iter_nodes(module)
    for order in (_memo or {}).get("orders", ()):
        if order.nodes and order.nodes[0] is module:
            return order.nodes, order.ends
    order = _Order(module)
    return order.nodes, order.ends


def _from_a_module(root: cst.CSTNode, into_functions: bool) -> list[cst.CSTNode] | None:
    for order in _memo.get("orders", ()):
        found = order.walk(root, into_functions)
        if found is not None:
            return found
    return None


_SCOPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)


def _walk(root: cst.CSTNode, into_functions: bool) -> list[cst.CSTNode]:
    # A walk of its own: outside memoized(), or of a node no memoized module holds. The
    # module's walk (_Order) inlines ``children``, since it visits every node of every module.
    found = []
    stack = [root]
    while stack:
        node = stack.pop()
        found.append(node)
        if not into_functions and type(node) in _SCOPES and node is not root:
            continue
        stack.extend(reversed(children(node)))
    return found

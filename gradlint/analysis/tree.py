"""A fast pre-order walk over libcst nodes.

``CSTNode.visit`` rebuilds every node it passes (it is a transformer underneath) and costs more
than the parse. The scans here only read, so they iterate each node's child fields directly,
skipping whitespace, commas and parentheses.
"""
from __future__ import annotations

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
# times each, so inside ``memoized()`` each walk is made once. The root is kept beside its id so
# a reused id can never return another node's walk.
_memo: dict[tuple[int, bool], tuple[cst.CSTNode, list[cst.CSTNode]]] | None = None


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
        hit = _memo[key] = (root, _walk(root, into_functions))
    return iter(hit[1])


_SCOPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)


def _walk(root: cst.CSTNode, into_functions: bool) -> list[cst.CSTNode]:
    # ``children`` inlined: this loop visits every node of a module a few times over.
    found = []
    stack = [root]
    kinds = _KIND
    while stack:
        node = stack.pop()
        found.append(node)
        cls = type(node)
        if not into_functions and cls in _SCOPES and node is not root:
            continue
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
        below.reverse()
        stack.extend(below)
    return found

"""A fast pre-order walk over libcst nodes.

``CSTNode.visit`` rebuilds every node it passes (it is a transformer underneath) and costs more
than the parse. The scans here only read, so they iterate each node's child fields directly,
skipping whitespace, commas and parentheses.
"""
from __future__ import annotations

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


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The node's direct children, in source order."""
    found = []
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            found.append(value)
        elif isinstance(value, (tuple, list)):
            found.extend(v for v in value if isinstance(v, cst.CSTNode))
    return found


def iter_nodes(root: cst.CSTNode, *, into_functions: bool = True) -> Iterator[cst.CSTNode]:
    """Every node under ``root`` (itself included), parents before children, in source order.
    With ``into_functions=False`` the bodies of nested functions, lambdas and classes are not entered."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        if not into_functions and node is not root and isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            continue
        stack.extend(reversed(children(node)))

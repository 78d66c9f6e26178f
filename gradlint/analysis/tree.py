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
import re
from typing import Iterator

_NOT_SOURCE = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


# Field types whose values are never nodes of the source: names, strings, numbers, contexts
# and operators.
_NOT_NODES = {"identifier", "string", "constant", "int", "expr_context", "operator", "unaryop",
              "cmpop", "boolop"}
_SIGNATURE = re.compile(r"\((.*)\)", re.S)
_FIELD = re.compile(r"(\w+)([*?]?)\s+(\w+)")


def _shape(cls: type) -> tuple[tuple[str, int], ...]:
    """The fields of ``cls`` that hold source nodes, in source order, each with its kind: 1 for
    a list of nodes (``None`` entries skipped), 0 for one node or None, 2 where the class's
    signature does not say (checked value by value). Decided once per class, from the
    signature ``ast`` gives each node class (``Call(expr func, expr* args, ...)``)."""
    if cls is ast.IfExp:
        return (("body", 0), ("test", 0), ("orelse", 0))
    declared = {}
    found = _SIGNATURE.search(cls.__doc__ or "")
    if found:
        for kind, mark, name in _FIELD.findall(found.group(1)):
            declared[name] = (kind, mark)
    shape = []
    for name in cls._fields:
        if name in ("ctx", "op", "ops", "type_comment"):
            continue
        if name not in declared:
            shape.append((name, 2))
        elif declared[name][0] not in _NOT_NODES:
            shape.append((name, 1 if declared[name][1] == "*" else 0))
    if cls in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
        # Decorators come first in the source.
        shape = [f for f in shape if f[0] == "decorator_list"] + [f for f in shape if f[0] != "decorator_list"]
    return tuple(shape)


_SHAPES: dict[type, tuple[tuple[str, int], ...]] = {}


def _children_into(node: ast.AST, cls: type, found: list) -> None:
    if cls is ast.Dict:  # keys and values interleaved; a ``**x`` entry has no key
        for key, value in zip(node.keys, node.values):
            if key is not None:
                found.append(key)
            found.append(value)
        return
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = _SHAPES[cls] = _shape(cls)
    for name, kind in shape:
        value = getattr(node, name, None)
        if value is None:
            continue
        if kind == 1 and type(value) is list:
            for item in value:
                if item is not None:
                    found.append(item)
        elif kind == 0 and type(value) is not list:
            found.append(value)
        elif type(value) is list:
            found.extend(v for v in value if isinstance(v, ast.AST) and not isinstance(v, _NOT_SOURCE))
        elif isinstance(value, ast.AST) and not isinstance(value, _NOT_SOURCE):
            found.append(value)


def children(node: ast.AST) -> list[ast.AST]:
    """The node's direct children, in source order."""
    found: list = []
    _children_into(node, type(node), found)
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


def once(kind: str, node: ast.AST, compute, *given):
    """``compute(node, *given)``, read once per node for the block ``memoized()`` holds: each walk
    of a function (the file's, its summary's, a loop's passes) asks the same scans of it. The
    answer is kept for the same ``given`` objects only, and must not be changed by its reader."""
    memo = _memo
    if memo is None:
        return compute(node, *given)
    key = (kind, id(node))
    hit = memo.get(key)
    if hit is not None and hit[0] is node and all(a is b for a, b in zip(hit[1], given)):
        return hit[2]
    found = compute(node, *given)
    memo[key] = (node, given, found)
    return found


def stand_in(node) -> bool:
    """A call no one wrote: the join a walk makes of a number and a tensor (``Walker.
    number_in_tensor_op``, `out + alpha * ipm` of a number computed in NumPy), which ends where
    its callee does."""
    return type(node) is ast.Call and not node.args and getattr(node, "end_lineno", None) is not None \
        and (node.end_lineno, node.end_col_offset) == (node.func.end_lineno, node.func.end_col_offset)


def parents(root: ast.AST) -> dict:
    """Each node under ``root`` -> the node that holds it, computed once per ``root`` (``once``)."""
    return once("parents", root, _parents)


def _parents(root: ast.AST) -> dict:
    return {child: up for up in ast.walk(root) for child in ast.iter_child_nodes(up)}


SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


# (the nodes whose names a statement binds: a function's, or the module's)
BINDING_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def enclosing(node: ast.AST | None, up: dict, kinds) -> ast.AST | None:
    """The nearest of ``node`` and its ancestors (``up``: ``parents`` of their tree) whose type is
    one of ``kinds``; None where none is."""
    while node is not None and type(node) not in kinds:
        node = up.get(node)
    return node


def exclusive(a: ast.AST, b: ast.AST, up: dict) -> bool:
    """``a`` and ``b`` lie in different arms of one ``if`` (``up``: ``parents``): no run reaches both
    in one pass."""
    arms = {}
    node = a
    while node in up:
        parent = up[node]
        if type(parent) is ast.If:
            arms[parent] = "body" if node in parent.body else "orelse" if node in parent.orelse else None
        node = parent
    node = b
    while node in up:
        parent = up[node]
        if type(parent) is ast.If and parent in arms:
            arm = "body" if node in parent.body else "orelse" if node in parent.orelse else None
            return None not in (arm, arms[parent]) and arm != arms[parent]
        node = parent
    return False


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


# Where statements hold statements: a walk of these alone (no expression entered) finds every
# import and class of a module, in the order of the full walk. An imported file of the project
# needs those, not the order of every node of it.
_BLOCKS = ("body", "handlers", "orelse", "finalbody", "cases")
_BLOCK_FIELDS: dict[type, tuple[str, ...]] = {}


def statements(module: ast.Module) -> Iterator[ast.AST]:
    """Every statement of the module at any depth (in functions and classes too; with the
    ``except`` handlers and ``case`` clauses that hold statements), in ``iter_nodes`` order."""
    stack = [iter(module.body)]
    blocks = _BLOCK_FIELDS
    while stack:
        for stmt in stack[-1]:
            yield stmt
            cls = type(stmt)
            names = blocks.get(cls)
            if names is None:
                names = blocks[cls] = tuple(name for name in _BLOCKS if name in cls._fields)
            if not names:
                continue
            inner = [part for part in (getattr(stmt, name, None) for name in names)
                     if type(part) is list and part]
            if inner:
                stack.extend(iter(part) for part in reversed(inner))
                break
        else:
            stack.pop()


def every_node(root: ast.AST) -> list[ast.AST]:
    """``iter_nodes(root)`` as a list, reused where this block already walked ``root`` or the
    module holding it, else walked once without remembering it (a module's order costs more to
    build than a plain walk, and is worth it only for the scans that slice it)."""
    if _memo is not None:
        hit = _memo.get((id(root), True))
        if hit is not None and hit[0] is root:
            return hit[1]
        found = _from_a_module(root, True)
        if found is not None:
            return found
    return _walk(root, True)


class _Order:
    """A module's nodes in walk order, with where the subtree of each statement and scope ends:
    the walk of any of them is then a slice of this one (less the bodies of nested scopes), not
    a walk of its own."""

    def __init__(self, module: ast.Module):
        self.nodes = nodes = []
        self.ends: list[int] = []
        self.at: dict[int, int] = {}
        self.scopes: list[int] = []  # positions of the functions, lambdas and classes
        ends, at, scopes, opened = self.ends, self.at, self.scopes, []
        shapes = _SHAPES
        stack: list = [module]
        while stack:
            node = stack.pop()
            if node is _END:
                ends[opened.pop()] = len(nodes)
                continue
            here = len(nodes)
            nodes.append(node)
            ends.append(here + 1)
            cls = type(node)
            tracked = _TRACKED.get(cls)
            if tracked is None:
                tracked = _TRACKED[cls] = _tracked(cls)
            if tracked:
                at[id(node)] = here
            if cls in SCOPES:
                scopes.append(here)
            # children(node), inlined: this loop visits every node of every module linted.
            shape = shapes.get(cls)
            if shape is None or cls is ast.Dict:
                below = children(node)
            else:
                below = []
                for name, kind in shape:
                    value = getattr(node, name, None)
                    if value is None:
                        continue
                    if kind == 1 and type(value) is list:
                        for item in value:
                            if item is not None:
                                below.append(item)
                    elif kind == 0 and type(value) is not list:
                        below.append(value)
                    else:
                        _children_into(node, cls, below := [])
                        break
            if below:
                if tracked:
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

# Whether an order places nodes of a class (``at``, ``ends``): statements, scopes and what holds
# statements. An expression's subtree is small, and walked on its own when asked (most never
# are): placing every node cost a third of building the order.
_TRACKED: dict[type, bool] = {}
_PARTS = (ast.keyword, ast.arg, ast.arguments, ast.comprehension, ast.alias, ast.withitem)


def _tracked(cls: type) -> bool:
    return cls is ast.Lambda or not (issubclass(cls, ast.expr) or cls in _PARTS)


def walk_with_ends(module: ast.Module) -> tuple[list[ast.AST], list[int]]:
    """The module's nodes in ``iter_nodes`` order, and for each statement and scope the position
    where its subtree ends (exclusive; an expression's entry is only past itself): a scan that
    needs each node's enclosing definition or block reads these in one pass."""
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
        cls = type(node)
        if not into_functions and cls in SCOPES and node is not root:
            continue
        below = children(node)
        if below:
            below.reverse()
            stack.extend(below)
    return found

"""What the prefilter knows of torch, by last name, and the small ``ast`` helpers its parts share.

The tables are read from the same measured data as the flow walker (``analysis/saves.py``,
``analysis/flow.py``), so the two cannot drift apart.
"""
from __future__ import annotations

import ast
from functools import lru_cache

BINOPS_THAT_SAVE = (ast.Mult, ast.Div, ast.Pow, ast.MatMult)
BACKWARDS = frozenset({"backward", "manual_backward", "grad"})
CUT_METHODS = frozenset({"detach", "detach_"})
# Calls ``scan.module_info`` reads through to the module they are called on.
MOVES = frozenset({"to", "cuda", "cpu", "train", "eval", "float", "double", "half", "requires_grad_"})
# Last names that may switch recording back on inside a no_grad region (``Walker.with_``,
# ``Walker.small``): a region with one of them in it is not taken to record nothing.
REENABLES = frozenset({"enable_grad", "set_grad_enabled"})


@lru_cache(maxsize=1)
def tables() -> tuple[frozenset, frozenset, frozenset, frozenset, frozenset]:
    """Last names of: rebuilders; ops that save something; torch.nn modules that save their input
    or output; callables taking ``inplace`` positionally; in-place tensor methods."""
    from gradlint.analysis import saves
    from gradlint.analysis.flow import REBUILDERS

    data = saves._data()

    def saves_any(entry: dict) -> bool:
        if entry.get("all", {}).get("inputs") or entry.get("all", {}).get("output"):
            return True
        if any(e.get("inputs") or e.get("output") for e in (entry.get("when") or {}).values()):
            return True
        return any(saves_any(v) for v in entry.get("variants") or ())

    rebuilders = frozenset(last(q) for q in REBUILDERS)
    ops = frozenset(last(q) for q, entry in data["ops"].items() if saves_any(entry))
    modules = frozenset(last(q) for q, m in data["modules"].items()
                        if m["input"] or m["output"] or m.get("inplace_output"))
    positional = frozenset(last(q) for q in data.get("inplace_arguments", {}))
    return rebuilders, ops, modules, positional, saves.inplace_methods()


@lru_cache(maxsize=1)
def module_tables() -> dict[str, frozenset]:
    """Last names of the ``torch.nn`` modules that save their input, and their output."""
    from gradlint.analysis import saves

    modules = saves._data()["modules"]
    return {"input": frozenset(last(q) for q, m in modules.items() if m["input"]),
            "output": output_tables()[2]}


@lru_cache(maxsize=1)
def output_tables() -> tuple[frozenset, tuple, frozenset]:
    """Last names of ops that may save their output; the ``ast`` operators that may; last names
    of ``torch.nn`` modules that may save their output."""
    from gradlint.analysis import saves

    data = saves._data()

    def output(entry: dict) -> bool:
        if entry.get("all", {}).get("output") or any(e.get("output") for e in (entry.get("when") or {}).values()):
            return True
        return any(output(v) for v in entry.get("variants") or ())

    ops = frozenset(last(q) for q, entry in data["ops"].items() if output(entry))
    binops = tuple(op for q, op in (("operator.mul", ast.Mult), ("operator.truediv", ast.Div),
                                    ("operator.pow", ast.Pow), ("operator.matmul", ast.MatMult))
                   if q not in data["ops"] or output(data["ops"][q]))
    modules = frozenset(last(q) for q, m in data["modules"].items() if m["output"] or m.get("inplace_output"))
    return ops, binops, modules


@lru_cache(maxsize=1)
def keeping_methods() -> frozenset:
    """Methods whose result keeps the receiver's records and storage (``flow.VIEW_METHODS``,
    ``flow.MAY_ALIAS``, ``requires_grad_`` returns the receiver) or its storage (``detach``,
    ``detach_``)."""
    from gradlint.analysis.flow import MAY_ALIAS, VIEW_METHODS

    return frozenset(VIEW_METHODS | MAY_ALIAS | {"detach", "detach_", "requires_grad_"})


@lru_cache(maxsize=1)
def view_methods() -> frozenset:
    from gradlint.analysis.flow import VIEW_METHODS

    return frozenset(VIEW_METHODS | {"detach"})


@lru_cache(maxsize=1)
def nograd_names() -> frozenset:
    """Qualified names that open a region recording nothing (``scan.NOGRAD``)."""
    from gradlint.analysis.scan import NOGRAD

    return frozenset(NOGRAD)


def last(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def true(expr: ast.AST | None) -> bool:
    """A literal ``True`` (``scan.literal_true``)."""
    return type(expr) is ast.Constant and expr.value is True


def dotted(expr: ast.AST) -> str | None:
    """``a.b.c`` for a chain of names and attributes; None for anything else (``imports.dotted``)."""
    parts = []
    while type(expr) is ast.Attribute:
        parts.append(expr.attr)
        expr = expr.value
    if type(expr) is not ast.Name:
        return None
    parts.append(expr.id)
    return ".".join(reversed(parts))


def bound_names(target) -> list[str]:
    """The names a binding of ``target`` rebinds (``Walker.bind``): a name or attribute chain,
    and those of a tuple's or list's elements; a subscript rebinds nothing."""
    kind = type(target)
    if kind is ast.Name or kind is ast.Attribute:
        name = dotted(target)
        return [name] if name else []
    if kind is ast.Tuple or kind is ast.List:
        return [n for element in target.elts for n in bound_names(element)]
    if kind is ast.Starred:
        return bound_names(target.value)
    return []


# Fields that never hold a child node worth visiting: names and numbers, and the context and
# operator singletons (``Load()``, ``Add()``), read from their parents where they matter.
_SCALAR_FIELDS = frozenset({"ctx", "op", "ops", "id", "attr", "arg", "name", "asname", "module", "level", "kind",
                            "type_comment", "is_async", "conversion", "names", "kwd_attrs", "rest", "tag", "simple"})
_LEAVES = (ast.Constant, ast.Name, ast.MatchSingleton, ast.Pass, ast.Break, ast.Continue, ast.Global,
           ast.Nonlocal, ast.Import, ast.ImportFrom)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {leaf: () for leaf in _LEAVES}
if hasattr(ast, "TypeAlias"):  # Python 3.12: `type X = …` names its alias with a node
    _CHILD_FIELDS[ast.TypeAlias] = tuple(ast.TypeAlias._fields)
_BODIES = frozenset({"body", "orelse", "finalbody", "handlers"})


def child_fields(kind: type) -> tuple[str, ...]:
    """The fields of an ``ast`` node class that may hold child nodes (a node, a list of nodes
    and None, or None)."""
    found = _CHILD_FIELDS.get(kind)
    if found is None:
        found = _CHILD_FIELDS[kind] = tuple(f for f in kind._fields if f not in _SCALAR_FIELDS)
    return found


def subtree(root: ast.AST, into_statements: bool = True) -> list[ast.AST]:
    """Every node under ``root``, ``root`` included (contexts and operators aside, and what is in
    a lambda, which the walker never walks); without the bodies of nested statements when
    ``into_statements`` is False (a compound statement's header only)."""
    nodes, stack = [], [root]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        nodes.append(node)
        kind = type(node)
        if kind is ast.Lambda:
            continue  # the walker never walks one
        fields = child_fields(kind)
        if not into_statements and isinstance(node, ast.stmt):
            fields = [f for f in fields if f not in _BODIES]
        for field in fields:
            value = getattr(node, field, None)
            if type(value) is list:
                stack.extend(value)
            elif value is not None:
                stack.append(value)
    return nodes


def requires_grad_targets(node: ast.Assign) -> list[ast.Attribute]:
    """The `….requires_grad` targets of an assignment, in a tuple or list target too."""
    found, stack = [], list(node.targets)
    while stack:
        target = stack.pop()
        if type(target) is ast.Attribute and target.attr == "requires_grad":
            found.append(target)
        elif type(target) in (ast.Tuple, ast.List):
            stack.extend(target.elts)
        elif type(target) is ast.Starred:
            stack.append(target.value)
    return found

"""GL001: a cut (``.detach()``, ``.detach_()``, ``.data``: ``Walker.cut``) whose value may reach a sink.

The walker records a cut only of a value that carries history (``grad.Grad.requires``) and is
computed (the result of an op or a call, a name bound to one, or a live input: ``_Computed``);
the check reads the cuts in the value of a ``return`` in a function and of a backward call's
root. The walker carries a value's cuts through every operation and call that computes from it,
through names, attribute chains it binds (``self.h = h.detach()`` then ``return self.h``), loop
and ``with`` targets, and into the receiver of a method that fills it or edits it in place
(``hs.append(h.detach())``, ``h.detach_()``); a function reads a top-level binding with its
cuts, but nothing else crosses scopes (a call's result holds its arguments' cuts, never the
callee's). Here a scope's taint is computed without regard to order: every name bound from an
expression that holds such a cut or names a tainted name (or a prefix of one) is tainted, until
nothing changes; a sink that holds a cut or names a tainted name may report.
"""
from __future__ import annotations

import ast

from gradlint.prefilter.tables import BACKWARDS, dotted
from gradlint.prefilter.taint import FILLS, Taint



def cut_reaches_a_sink(scan) -> bool:
    if not any(scope.cut for scope in scan.scopes):
        return False
    top = scan.scopes[0]
    bound_globals = _bound(top)
    computed = _Computed(bound_globals, frozenset(), scan.grad(top))
    tainted_globals = Taint(top, frozenset(), lambda expr: _read(scan, expr, computed)).tainted
    for scope in scan.scopes:
        if scope.kind == "class" or not scope.sink:
            continue  # the walker never walks a class body
        start = frozenset() if scope is top else tainted_globals
        if not (scope.cut or start):
            continue
        computed = _Computed(bound_globals if scope is top else bound_globals | _bound(scope), _live(scan, scope),
                             scan.grad(scope))
        if _reaches_sink(scan, Taint(scope, start, lambda expr, c=computed: _read(scan, expr, c)), returns=scope is not top):
            return True
    return False


def _reaches_sink(scan, taint: Taint, returns: bool) -> bool:
    """A ``return`` (in a function) or a backward call whose value may hold a cut."""
    for node in taint.scope.nodes:
        kind = type(node)
        if kind is ast.Return and returns and node.value is not None and taint.holds(node.value):
            return True
        if kind is ast.Call and not scan.lasts(node.func).isdisjoint(BACKWARDS) and taint.holds(node):
            return True
    return False


class _Computed:
    """Whether a cut of an expression's value may be one the walker records (``Walker.cut``): the
    value may carry history (``grad.Grad.requires``) and be *computed* (``Value.computed``: the
    result of an op or a call, or a name bound to one); a bare parameter is computed only where it
    may be live (a ``forward`` input, or what callers hand a function: the walker's ``name@input``)."""

    def __init__(self, bound: frozenset, live: frozenset, grad):
        self.names = bound | live
        self.grad = grad

    def __call__(self, expr) -> bool:
        return self.computed(expr) and self.grad.requires(expr)

    def computed(self, expr) -> bool:
        kind = type(expr)
        if kind is ast.Name:
            return expr.id in self.names
        if kind is ast.Attribute:
            name = dotted(expr)
            if name is None:
                return self.computed(expr.value)
            parts = name.split(".")
            return any(".".join(parts[:i]) in self.names for i in range(1, len(parts) + 1))
        if kind is ast.Subscript or kind is ast.NamedExpr or kind is ast.Await or kind is ast.Starred:
            return self.computed(expr.value)
        if kind is ast.IfExp:
            return self.computed(expr.body) or self.computed(expr.orelse)
        if kind is ast.BoolOp:
            return any(map(self.computed, expr.values))
        return kind not in _NOT_COMPUTED


_NOT_COMPUTED = frozenset({ast.Constant, ast.JoinedStr, ast.Tuple, ast.List, ast.Set, ast.Dict, ast.ListComp,
                           ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda})


def _bound(scope) -> frozenset:
    """The names and attribute chains ``scope`` binds (its ``env``), and the receivers of the
    methods that rebind theirs to a computed value (``Walker.method_call``: a fill, an in-place
    method)."""
    found = set(scope.stores)
    for node in scope.nodes:
        if type(node) is ast.Call and type(node.func) is ast.Attribute:
            method = node.func.attr
            if method in FILLS or (method.endswith("_") and not method.endswith("__")):
                receiver = dotted(node.func.value)
                if receiver is not None:
                    found.add(receiver)
    return frozenset(found)


def _live(scan, scope) -> frozenset:
    """Parameters that may hold a live input (``Walker.function_body``): a ``forward``'s but
    the first, and every parameter callers may hand one (``facts.live_arguments``: a function's,
    or a method's named like a module-level function)."""
    args = scope.params
    if args is None:
        return frozenset()
    params = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
    if scope.kind == "function" or scope.name in scan.toplevel:
        return frozenset(params)
    return frozenset(params[1:]) if scope.name == "forward" else frozenset()


def _read(scan, expr, computed: _Computed) -> tuple[bool, frozenset]:
    """(whether ``expr`` cuts a value the walker records a cut of, the names and chain prefixes
    it reads)."""
    summary = scan.summary(expr)
    return any(map(computed, summary.cuts)), summary.prefixes

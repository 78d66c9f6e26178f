"""GL002: a tensor rebuilt from values that came out of tensors, then made to require grad or trained.

The walker records a rebuild (a call of ``flow.REBUILDERS``: ``torch.tensor``, ``from_numpy``,
``Variable``, …) whose data may make a round trip (``Rebuild.roundtrip``): values pulled out of
tensors (``.item()``, ``.tolist()``, ``.numpy()``, ``float()``, ``int()``: ``Value.pulled``) or a
computed tensor with history (``copies_history``: here, data that may require grad or be a
tensor, ``grad.Grad``). The check reads such a rebuild made to require grad by the call itself
(``requires_grad=True``), and rebuilt values (``Value.rebuilt``) that reach a requires_grad
switch or a backward call. Pulled and rebuilt values travel as the walker carries them
(``taint.Taint``; a function reads the top-level bindings with theirs).
"""
from __future__ import annotations

import ast

from gradlint.prefilter.taint import Taint
from gradlint.prefilter.tables import BACKWARDS, requires_grad_targets, subtree, true

_PULLS = frozenset({"item", "tolist", "numpy"})


def rebuild_is_trained(scan) -> bool:
    scopes = [s for s in scan.scopes if s.kind != "class"]  # the walker never walks a class body
    if not any(s.rebuild for s in scopes):
        return False
    top = scan.scopes[0]
    pulled_top, rebuilt_top = _taints(scan, top, frozenset(), frozenset())
    for scope in scopes:
        pulled_start, rebuilt_start = (frozenset(), frozenset()) if scope is top else (pulled_top.tainted, rebuilt_top.tainted)
        if not (scope.rebuild or rebuilt_start):
            continue
        pulled, rebuilt = (pulled_top, rebuilt_top) if scope is top else _taints(scan, scope, pulled_start, rebuilt_start)
        for node in scope.nodes:
            if type(node) is not ast.Call:
                continue
            if _rebuilder(scan, node) and any(k.arg == "requires_grad" and true(k.value) for k in node.keywords) \
                    and _round_trip(scan, scope, pulled, node):
                return True  # made to require grad on the spot
            func = node.func
            if type(func) is ast.Attribute and func.attr == "requires_grad_" and rebuilt.holds(func.value):
                return True
            if not scan.lasts(func).isdisjoint(BACKWARDS) and rebuilt.holds(node):
                return True
        for node in scope.nodes:  # `t.requires_grad = True`
            if type(node) is ast.Assign and true(node.value) and any(
                    rebuilt.holds(t.value) for t in requires_grad_targets(node)):
                return True
    return False


def _taints(scan, scope, pulled_start: frozenset, rebuilt_start: frozenset) -> tuple[Taint, Taint]:
    """The scope's names that may hold pulled values, and rebuilt values."""
    pulled = Taint(scope, pulled_start, lambda expr: (_pulls(expr), scan.summary(expr).prefixes))
    rebuilt = Taint(scope, rebuilt_start, lambda expr: (
        any(type(n) is ast.Call and _rebuilder(scan, n) and _round_trip(scan, scope, pulled, n) for n in subtree(expr)),
        scan.summary(expr).prefixes))
    return pulled, rebuilt


def _rebuilder(scan, call: ast.Call) -> bool:
    return not scan.lasts(call.func).isdisjoint(scan.rebuilders)


def _round_trip(scan, scope, pulled: Taint, call: ast.Call) -> bool:
    """Whether the data of a rebuild may come out of tensors (``Rebuild.roundtrip``)."""
    data = next((a for a in call.args if type(a) is not ast.Starred), None)
    if data is None:
        return False
    grad = scan.grad(scope)
    return pulled.holds(data) or grad.requires(data) or grad.tensor(data)


def _pulls(expr) -> bool:
    """``x.item()``, ``x.tolist()``, ``x.numpy()``, ``float(x)``, ``int(x)`` in ``expr``."""
    for node in subtree(expr):
        if type(node) is ast.Call:
            func = node.func
            if (type(func) is ast.Attribute and func.attr in _PULLS) or (
                    type(func) is ast.Name and func.id in ("float", "int")):
                return True
    return False

"""Which values may require grad, and which may be tensors, scope by scope.

The walker records a save only where an operand may require grad (``Walker.apply_saves``: an
operand *attached*, carrying a trainable's history, or *live*, an input that may require grad),
an operator's only where an operand may also be a tensor or live (``Walker.binary``), and a cut
only of an operand with history (``Walker.cut``). ``Grad`` over-approximates, for one scope and
without regard to order, which names and attribute chains may hold such values:

- *requires* (attached or live): ``self.x`` (a trainable attribute of a module), a parameter named
  like a model, a ``forward``'s inputs, the parameters of a module-level function some call hands
  such a value (``facts.live_arguments``), a seeded parameter, a name bound to a constructor or a
  leaf made to require grad (``Walker.makes_root``), and whatever is computed from one;
- *tensor* (a tensor or live): live names, a registered buffer (``self.running_mean``), ``.grad``
  and ``.data``, the result of a torch function, of a module, of a tensor-only method, and what is
  computed from one.

An expression requires grad when a name or chain in it does; it may be a tensor when a name or
chain in it may be, or it holds one of those calls. A chain is judged by its prefixes
(``Walker.lookup`` falls back to the base's value). A function reads the top-level bindings.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Callable
from functools import lru_cache

from gradlint.prefilter.saved import record_holders
from gradlint.prefilter.tables import CUT_METHODS, MOVES, bound_names, dotted, true

_TENSOR_SEGMENTS = frozenset({"grad", "data"})


@lru_cache(maxsize=1)
def _module_like() -> re.Pattern:
    from gradlint.analysis.flow import MODULE_LIKE

    return MODULE_LIKE


@lru_cache(maxsize=1)
def _tensor_methods() -> frozenset:
    from gradlint.analysis.flow import TENSOR_ONLY_METHODS

    return frozenset(TENSOR_ONLY_METHODS | {"numpy"})


class Summary:
    """What an expression reads: its names and attribute chains, the chains it calls, whether it
    surely makes a tensor somewhere (a torch call, ``.grad``, a tensor-only method), and what it
    cuts. Lambdas are left out: the walker never walks one."""

    __slots__ = ("chains", "callees", "tensor", "self_chain", "self_callee", "prefixes", "callee_prefixes", "cuts",
                 "operators", "opaque_call")

    def __init__(self, expr: ast.AST, scan):
        chains, callees, tensor, cuts, operators, opaque = set(), set(), False, [], set(), False
        stack = [expr]
        while stack:
            node = stack.pop()
            kind = type(node)
            if kind is ast.Name:
                chains.add(node.id)
                continue
            if kind is ast.Attribute:
                if node.attr == "data" and type(node.ctx) is ast.Load:
                    cuts.append(node.value)
                name = dotted(node)
                if name is not None:
                    chains.add(name)
                    link = node.value  # `a.data.b`: the `.data` inside the chain is a cut of `a`
                    while type(link) is ast.Attribute:
                        if link.attr == "data":
                            cuts.append(link.value)
                        link = link.value
                    continue
                tensor = tensor or node.attr in _TENSOR_SEGMENTS
            elif kind is ast.Call:
                func = node.func
                if type(func) is ast.Attribute and func.attr in CUT_METHODS:
                    cuts.append(func.value)
                name = dotted(func)
                if name is None:
                    tensor = opaque = True  # `nn.ReLU()(x)`, `self.blocks[0](x)`: a module's result
                else:
                    callees.add(name)
                    if type(func) is ast.Attribute and func.attr in _tensor_methods():
                        tensor = True
                    elif name.partition(".")[0] in scan.imports and any(
                            q.startswith("torch") for q in scan.quals(name)):
                        tensor = True  # ``Walker.torch_call``
            elif kind is ast.BinOp:
                operators.add(type(node.op))
            elif kind is ast.Lambda:
                continue  # never walked
            for field in node._fields:
                value = getattr(node, field, None)
                if type(value) is list:
                    stack.extend(v for v in value if isinstance(v, ast.AST))
                elif isinstance(value, ast.AST):
                    stack.append(value)
        self.chains = frozenset(chains)
        self.callees = frozenset(callees)
        self.tensor = tensor
        self.self_chain = any(c.startswith("self.") for c in chains)
        self.self_callee = any(c.startswith("self.") for c in callees)
        # Every chain and every prefix of one: a chain is judged by its prefixes (``Walker.lookup``)
        self.prefixes = frozenset(p for c in chains for p in _prefixes(c))
        self.callee_prefixes = frozenset(p for c in callees for p in _prefixes(c))
        self.cuts = tuple(cuts)  # the operands of the cuts in it (``.detach()``, ``.data``)
        self.operators = frozenset(operators)  # the classes of its binary operators
        self.opaque_call = opaque  # it calls something that is not a name or attribute chain


class Grad:
    """``requires`` and ``tensor`` for the expressions of one scope (see the module's docstring)."""

    def __init__(self, scan, scope, live: Callable[[], frozenset], top: "Callable[[], Grad] | None" = None):
        """``live()``: the parameters callers may hand a value that requires grad; ``top()``: the
        module's ``Grad``, whose names a function reads. Both are asked only if an expression
        needs the names (``_build``): ``self.x`` alone decides most."""
        self.scan = scan
        self.scope = scope
        self._live = live
        self._top = top
        # A method of a class that cannot be a module reads as trainables only the attributes
        # bound to modules, calls of those bound at all, and `self.forward()` (``Walker.lookup``,
        # ``Walker.call``); elsewhere every `self.x` may be one.
        self.attributes = None if scope.owner is None or scan.may_be_module(scope.owner) else (
            scan.class_attributes(scope.owner))
        self.requiring: set[str] | None = None
        self.tensors: set[str] = set()

    def _build(self) -> None:
        scan, scope = self.scan, self.scope
        top = self._top() if self._top is not None else None
        if top is not None and top.requiring is None:
            top._build()
        self.requiring = set(top.requiring) if top is not None else set()
        if top is not None:
            self.tensors |= top.tensors
        self._parameters(scope, self._live())
        flows = []  # (names bound, values, how): how is "=", "root" (a constructor) or "loop"
        for node in scope.nodes:
            kind = type(node)
            if kind is ast.Assign:
                names = [n for t in node.targets for n in bound_names(t)]
                flows.append((names, [node.value], "root" if _makes_root(scan, node.value) else "="))
            elif kind is ast.AnnAssign and node.value is not None:
                flows.append((bound_names(node.target), [node.value], "root" if _makes_root(scan, node.value) else "="))
            elif kind is ast.AugAssign:
                flows.append((bound_names(node.target), [node.value, node.target], "="))
            elif kind is ast.For or kind is ast.AsyncFor or kind is ast.comprehension:
                flows.append((bound_names(node.target), [node.iter], "loop"))
            elif kind is ast.withitem and node.optional_vars is not None:
                flows.append((bound_names(node.optional_vars), [node.context_expr], "="))
            elif kind is ast.NamedExpr:
                flows.append((bound_names(node.target), [node.value], "="))
            elif kind is ast.Call and type(node.func) is ast.Attribute:
                receiver = dotted(node.func.value)
                method = node.func.attr
                if receiver is not None and (method in ("append", "extend", "insert") or method.endswith("_")):
                    # a list that collects tensors, a tensor edited in place: it holds its arguments
                    flows.append(([receiver], [*node.args, *(k.value for k in node.keywords)], "="))
                    if method == "detach_":
                        self.tensors.add(receiver)
        # Per binding: its values' summaries, merged.
        merged = []
        for names, values, how in flows:
            summaries = [scan.summary(v) for v in values]
            merged.append((names, how, any(self._self_requires(x) for x in summaries),
                           any(self._self_tensor(x) for x in summaries),
                           frozenset().union(*(x.prefixes for x in summaries)),
                           frozenset().union(*(x.callee_prefixes for x in summaries))))
        grew = True
        while grew:
            grew = False
            for names, how, self_requires, self_tensor, prefixes, callee_prefixes in merged:
                requires = how == "root" or self_requires or not prefixes.isdisjoint(self.requiring)
                tensor = (how == "root" or self_tensor or (how == "loop" and requires)
                          or not prefixes.isdisjoint(self.tensors) or not callee_prefixes.isdisjoint(self.requiring))
                for name in names:
                    if requires and name not in self.requiring:
                        self.requiring.add(name)
                        grew = True
                    if tensor and name not in self.tensors:
                        self.tensors.add(name)
                        grew = True

    def _parameters(self, scope, live: frozenset) -> None:
        """``Walker.function_body``: ``live`` are the parameters callers may hand a value that
        requires grad (``facts.live_arguments``), or records (a seeded scope)."""
        args = scope.params
        if args is None:
            return
        params = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
        method = scope.kind == "method"
        live = set(live)
        if method and scope.name == "forward":
            live.update(params[1:])
        self.requiring |= live
        self.tensors |= live
        model_like = _module_like()
        self.requiring.update(p for i, p in enumerate(params) if model_like.search(p) and not (i == 0 and method))

    # ---- expressions ----

    def requires(self, expr: ast.AST) -> bool:
        summary = self.scan.summary(expr)
        if self._self_requires(summary):
            return True
        if self.requiring is None:
            self._build()
        return not summary.prefixes.isdisjoint(self.requiring)

    def tensor(self, expr: ast.AST) -> bool:
        summary = self.scan.summary(expr)
        if self._self_tensor(summary):
            return True
        if self.requiring is None:
            self._build()
        return not summary.prefixes.isdisjoint(self.tensors) or not summary.callee_prefixes.isdisjoint(self.requiring)

    def _self_requires(self, summary: Summary) -> bool:
        """`self(x)`: the module itself (``Walker.name_call``); `self.x`: a module's trainables
        (``Walker.lookup``)."""
        if "self" in summary.callees:
            return True
        if not summary.self_chain:
            return False
        attributes = self.attributes
        return attributes is None or any(
            attributes.get(c.split(".")[1], False) for c in summary.chains if c.startswith("self.")) or any(
            self._called_attribute(c) for c in summary.callees)

    def _called_attribute(self, callee: str) -> bool:
        """`self.m(x)` in a class that cannot be a module: a root if the class binds `self.m`."""
        parts = callee.split(".")
        return len(parts) == 2 and parts[0] == "self" and (
            parts[1] in ("forward", "__call__") or parts[1] in self.attributes)

    def _self_tensor(self, summary: Summary) -> bool:
        """A torch call, a module's result, a result of a function or method of the module
        (``Walker.no_history_call``: one that runs under no_grad makes a tensor), ``.grad``/
        ``.data``, a registered buffer."""
        if summary.tensor or "self" in summary.callees:
            return True
        defs = self.scan.def_names
        for callee in summary.callees:
            head, _, rest = callee.partition(".")
            if (not rest and head in defs) or (head == "self" and "." not in rest and rest in defs):
                return True
            if head == "self" and rest and (self.attributes is None or self._called_attribute(callee)):
                return True
        return any(_tensor_chain(c, self.scan.buffers) for c in summary.chains)


def _tensor_chain(chain: str, buffers: set) -> bool:
    """``x.grad``, ``x.data``, a registered buffer ``self.x``."""
    parts = chain.split(".")
    if any(part in _TENSOR_SEGMENTS for part in parts[1:]):
        return True
    return parts[0] == "self" and len(parts) > 1 and parts[1] in buffers


@lru_cache(maxsize=65536)
def _prefixes(chain: str) -> tuple[str, ...]:
    """``a``, ``a.b``, ``a.b.c`` for ``a.b.c``."""
    parts = chain.split(".")
    return tuple(".".join(parts[:i]) for i in range(1, len(parts) + 1))


def _makes_root(scan, expr) -> bool:
    """Whether a binding of ``expr`` may give its name a root of its own (``Walker.makes_root``:
    ``nn.Parameter``, a ``torch.nn`` module, a class of this module, another class that may be a
    model, a leaf made to require grad), under any import of its name."""
    while type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr in MOVES:
        if expr.func.attr == "requires_grad_" and not (expr.args and type(expr.args[0]) is ast.Constant
                                                       and expr.args[0].value is False):
            return True
        expr = expr.func.value
    if type(expr) is not ast.Call:
        return False
    if any(k.arg == "requires_grad" and true(k.value) for k in expr.keywords):
        return True
    name = dotted(expr.func)
    if name is None:
        return False
    not_modules, parameter = _walker_names()
    for qual in scan.quals(name):
        last = qual.rsplit(".", 1)[-1]
        if qual in parameter or (qual.startswith("torch.nn.") and last[:1].isupper()):
            return True
        if qual.startswith(("torch.", "numpy.", "np.")) or qual.split(".")[0] in ("torch", "numpy"):
            continue
        if qual in scan.class_names or (last[:1].isupper() and not last.isupper()
                                        and not not_modules.search(last) and "optim" not in qual):
            return True
    return False


@lru_cache(maxsize=1)
def _walker_names() -> tuple[re.Pattern, frozenset]:
    from gradlint.analysis.flow import NOT_MODULES, PARAMETER

    return NOT_MODULES, frozenset(PARAMETER)


def live_parameters(scan) -> frozenset:
    """``param@function`` for each parameter of a module-level function that some call by the
    function's bare name hands a value that may require grad (``facts.live_arguments``) or hold
    a saved record (``facts.saved_arguments``, which makes it live too): by position
    (``facts.parameters``), or by keyword; every parameter after a ``*args``; to a fixed point."""
    signatures: dict[str, list[list[str]]] = {}
    for scope in scan.scopes:
        if scope.kind == "function" and scope.name in scan.toplevel and scope.params is not None:
            args = scope.params
            signatures.setdefault(scope.name, []).append(
                [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]])
    live: frozenset = frozenset()
    while True:
        found = set(live)
        for scope in scan.scopes:
            if scope.kind == "class" or scope.bare_calls.isdisjoint(scan.toplevel):
                continue
            grad = scan.grad(scope, live)
            records: list = []  # made on first need

            def hands(arg) -> bool:
                """An argument that may require grad, or hold a saved record: a parameter handed
                one is live too (``Walker.function_body``: ``facts.saved_arguments``)."""
                if grad.requires(arg):
                    return True
                if not records:
                    records.append(record_holders(scan, scope, scan.live_of(scope, live) if scope.params else frozenset()))
                return records[0].holds(arg)

            for node in scope.nodes:
                if type(node) is not ast.Call or type(node.func) is not ast.Name or node.func.id not in signatures:
                    continue
                name = node.func.id
                starred = any(type(a) is ast.Starred for a in node.args)
                for i, arg in enumerate(node.args):
                    if type(arg) is not ast.Starred and hands(arg):
                        for params in signatures[name]:
                            found.update(f"{p}@{name}" for p in (params if starred else params[i:i + 1]))
                for keyword in node.keywords:
                    if keyword.arg is not None and hands(keyword.value):
                        found.add(f"{keyword.arg}@{name}")
        if found == live:
            return live
        live = frozenset(found)

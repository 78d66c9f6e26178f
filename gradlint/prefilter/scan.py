"""One pass over a module's ``ast``: its scopes, imports and calls, and the rule conditions.

``Scan`` records, per scope (the top level, each function, each class body), the nodes that
belong to it and what kinds of thing happen there (a cut, a sink, a rebuild, an edit, an op that
may save…); ``reports`` then asks each rule's condition, the cheap ones first.
"""
from __future__ import annotations

import ast
import re
from functools import lru_cache

from gradlint.prefilter.cuts import cut_reaches_a_sink
from gradlint.prefilter.grad import Grad, Summary, live_parameters
from gradlint.prefilter.rebuilds import rebuild_is_trained
from gradlint.prefilter.saved import aliases_of, edits_a_saved_tensor
from gradlint.prefilter.steps import steps_before_a_backward
from gradlint.prefilter.tables import (
    BACKWARDS, BINOPS_THAT_SAVE, CUT_METHODS, MOVES, bound_names, child_fields, dotted, requires_grad_targets,
    module_tables,
    nograd_names, tables, true, view_methods,
)


# The node kinds the conditions read from a scope's ``nodes``.
_KEPT = frozenset({ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.comprehension, ast.withitem,
                   ast.NamedExpr, ast.Call, ast.Return, ast.With, ast.AsyncWith})


class Scope:
    """What one scope (the top level, a function, a class body) holds, for the conditions."""

    __slots__ = ("kind", "name", "cut", "sink", "rebuild", "edit", "save", "call",
                 "step", "backward", "nodes", "params", "body", "decorators", "decorated_nograd", "bare_calls",
                 "stores", "switch", "owner", "bases", "binops")

    def __init__(self, kind: str, name: str, params: ast.arguments | None = None, decorators=()):
        self.kind = kind  # "module", "function", "method", "class"
        self.name = name
        self.params = params
        self.decorators = decorators
        self.decorated_nograd = False  # decorated to record nothing (set once the imports are known)
        self.nodes: list[ast.AST] = []  # its nodes of the ``_KEPT`` kinds, nested scopes' bodies excluded
        self.stores: set[str] = set()  # the names and attribute chains it binds (its ``env``)
        self.binops: list[ast.BinOp] = []  # its operators that may save (``*``, ``/``, ``**``, ``@``)
        self.body: list[ast.stmt] = []
        self.bare_calls: set[str] = set()  # names called bare here (`helper(x)`)
        self.cut = self.sink = self.rebuild = self.edit = False
        self.save = self.call = self.step = self.backward = False
        self.switch = False  # requires_grad switched on (``Walker.switch``)
        self.owner: Scope | None = None  # a method's class
        self.bases: list[str] = []  # a class's bases, as written


class Scan:
    def __init__(self, tree: ast.Module):
        # Local name → every qualified name an import binds it to: the walker's table keeps the
        # last import of a name (in the module, wherever it stands), so a name imported more than
        # once (a try/except fallback, a local re-import) may be any of them.
        self.imports: dict[str, set[str]] = {}
        self.scopes: list[Scope] = []
        self.inplace_module = False  # some call builds a module with inplace=… or a positional True
        self.saving_module = False  # some call names a torch.nn module that saves input or output
        self.sequentials: list[ast.Call] = []  # calls of something named Sequential
        self.buffers: set[str] = set()  # names registered as buffers (`register_buffer("x", …)`)
        self._summaries: dict[int, Summary] = {}
        self._grads: dict[tuple, Grad] = {}
        self._live: frozenset | None = None
        self._memo: dict = {}
        self.headers: dict = {}  # statement roots -> their nodes (``flow.StatementFlow.nodes``)
        self.rebuilders, self.ops, self.modules, self.positional, self.methods = tables()
        self.calls: list[tuple[ast.Call, Scope]] = []
        top = Scope("module", "<module>")
        self.toplevel = {s.name for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self.scopes.append(top)
        top.body = tree.body
        self._scan(tree.body, top)
        # Calls are judged once every import is known: the walker resolves names through the
        # whole module's import table, wherever an import stands.
        for call, facts in self.calls:
            self._call(call, facts)
        for scope in self.scopes:
            scope.decorated_nograd = any(self.opens_nograd(d) for d in scope.decorators)

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        """Local name → qualified name, as ``analysis.imports.ImportTable`` reads them."""
        if type(node) is ast.Import:
            for alias in node.names:
                if alias.asname:
                    self.imports.setdefault(alias.asname, set()).add(alias.name)
                else:
                    head = alias.name.split(".")[0]
                    self.imports.setdefault(head, set()).add(head)
        elif not node.level and node.module:
            for alias in node.names:
                if alias.name != "*":
                    self.imports.setdefault(alias.asname or alias.name, set()).add(f"{node.module}.{alias.name}")

    def quals(self, name: str) -> set[str]:
        """Every qualified name the dotted ``name`` may resolve to (``ImportTable.qualname``: an
        unimported head as written)."""
        head, _, rest = name.partition(".")
        return {f"{q}.{rest}" if rest else q for q in self.imports.get(head, (head,))}

    def lasts(self, func: ast.expr) -> set:
        """The last component of a callee's qualified name (through any import of it), if dotted."""
        if type(func) is ast.Attribute:
            return {func.attr}
        if type(func) is ast.Name:
            return {q.rsplit(".", 1)[-1] for q in self.quals(func.id)}
        return {None}

    def _scan(self, nodes: list, facts: Scope) -> None:
        """Record ``nodes`` and everything under them into ``facts``, except nested function and
        class bodies, which become scopes of their own."""
        stack = list(nodes)
        kept = facts.nodes
        while stack:
            node = stack.pop()
            kind = type(node)
            if kind is ast.Name:
                if type(node.ctx) is ast.Store:
                    facts.stores.add(node.id)
                continue
            if node is None or kind is ast.Constant:
                continue
            if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef or kind is ast.ClassDef:
                if kind is ast.ClassDef:
                    inner = Scope("class", node.name)
                    inner.bases = [n for n in map(dotted, node.bases) if n]
                else:
                    inner = Scope("method" if facts.kind == "class" else "function", node.name, node.args,
                                  node.decorator_list)
                    if facts.kind == "class":
                        inner.owner = facts
                self.scopes.append(inner)
                self._scan([*node.decorator_list, *getattr(node, "bases", ()), *getattr(node, "keywords", ())], facts)
                if kind is not ast.ClassDef:
                    self._scan([node.args], facts)
                inner.body = node.body
                self._scan(node.body, inner)
                continue
            if kind in _KEPT:
                kept.append(node)
            if kind is ast.Call:
                self.calls.append((node, facts))
            elif kind is ast.Attribute:
                if node.attr == "data":
                    facts.cut = True
                if type(node.ctx) is ast.Store:
                    name = dotted(node)
                    if name is not None:
                        facts.stores.add(name)
            elif kind is ast.Import or kind is ast.ImportFrom:
                self._import(node)
                continue
            elif kind is ast.BinOp:
                if isinstance(node.op, BINOPS_THAT_SAVE):
                    facts.save = True
                    facts.binops.append(node)
            elif kind is ast.Subscript:
                if type(node.ctx) is ast.Store:
                    facts.edit = True
            elif kind is ast.AugAssign:
                facts.edit = True
            elif kind is ast.Assign:
                # `x.requires_grad = True` (``Walker.bind``: a literal True only, also in a tuple target)
                if true(node.value) and requires_grad_targets(node):
                    facts.switch = True
            elif kind is ast.Return:
                if node.value is not None:
                    facts.sink = True
            for field in child_fields(kind):
                value = getattr(node, field, None)
                if type(value) is list:
                    stack.extend(value)
                elif value is not None:
                    stack.append(value)

    def _call(self, node: ast.Call, facts: Scope) -> None:
        facts.call = True
        func = node.func
        if type(func) is ast.Name:
            facts.bare_calls.add(func.id)
        for last in self.lasts(func):
            self._call_as(node, facts, last)

    def _call_as(self, node: ast.Call, facts: Scope, last: str | None) -> None:
        func = node.func
        method = func.attr if type(func) is ast.Attribute else None
        if method in CUT_METHODS:
            facts.cut = True
        if last in BACKWARDS:
            facts.sink = facts.backward = True
        if method == "step":
            facts.step = True
        elif method == "register_buffer" and node.args and type(node.args[0]) is ast.Constant:
            self.buffers.add(str(node.args[0].value))
        if last is None:
            return
        if last in self.rebuilders:
            facts.rebuild = True
            if true(next((k.value for k in node.keywords if k.arg == "requires_grad"), None)):
                facts.switch = True  # a rebuild made to require grad
        if method == "requires_grad_" and not (node.args and type(node.args[0]) is ast.Constant
                                               and node.args[0].value is False):
            facts.switch = True
        if self.op_saves(func):
            facts.save = True
        if last in self.modules:
            self.saving_module = True
        if last == "Sequential":
            self.sequentials.append(node)
        if (method in self.methods) or (last.endswith("_") and not last.endswith("__")):
            facts.edit = True
        keywords = {k.arg: k.value for k in node.keywords}
        if "out" in keywords:
            facts.edit = True
        if true(keywords.get("inplace")) or (last in self.positional and any(map(true, node.args))):
            facts.edit = True
            self.inplace_module = True

    def global_aliases(self) -> dict[str, frozenset]:
        """What each name bound in top-level code may share storage with, over every binding of
        it there (flow-insensitive, closed under aliasing)."""
        if "_global_aliases" in self.__dict__:
            return self.__dict__["_global_aliases"]
        found: dict[str, set] = {}
        for node in self.scopes[0].nodes:
            kind = type(node)
            if kind is ast.Assign:
                pairs = [(t, node.value) for t in node.targets]
            elif (kind is ast.AnnAssign and node.value is not None) or kind is ast.NamedExpr:
                pairs = [(node.target, node.value)]
            elif kind is ast.With or kind is ast.AsyncWith:
                pairs = [(i.optional_vars, i.context_expr) for i in node.items if i.optional_vars is not None]
            else:
                continue
            for target, value in pairs:
                sources: set = set()
                aliases_of(self, value, sources)
                if sources:
                    for name in bound_names(target):
                        found.setdefault(name, set()).update(sources)
        grew = True
        while grew:
            grew = False
            for name, sources in found.items():
                more = set().union(*(found.get(n, ()) for n in sources)) - sources
                if more:
                    sources |= more
                    grew = True
        result = self.__dict__["_global_aliases"] = {n: frozenset(v) for n, v in found.items()}
        return result

    def reports(self, codes: set[str]) -> bool:
        scopes = self.scopes
        top = scopes[0]
        if "GL003" in codes and any(s.switch for s in scopes):
            return True
        if "GL002" in codes and (top.rebuild or any(s.rebuild and (s.switch or s.backward) for s in scopes)) \
                and rebuild_is_trained(self):
            return True
        if "GL005" in codes:
            if any(s.step and s.backward and s.kind != "class" and steps_before_a_backward(self, s) for s in scopes):
                return True
            if self.sequential_edit():
                return True
        if "GL001" in codes and cut_reaches_a_sink(self):
            return True
        return "GL005" in codes and edits_a_saved_tensor(self)

    def clear(self) -> None:
        """Drop the caches (each ``Grad`` refers back to this scan)."""
        self._grads.clear()
        self._summaries.clear()
        self._memo.clear()
        self.headers.clear()

    def summary(self, expr: ast.AST) -> Summary:
        found = self._summaries.get(id(expr))
        if found is None:
            found = self._summaries[id(expr)] = Summary(expr, self)
        return found

    def grad(self, scope: Scope, live: frozenset | None = None, seeded: bool = False) -> Grad:
        """What may require grad in ``scope`` (``grad.Grad``), given the parameters of module-level
        functions handed such values (``param@function``; default: all that are,
        ``grad.live_parameters``, found only if a function's names are needed); every parameter
        of a ``seeded`` scope."""
        if seeded:
            args = scope.params
            mine = frozenset(a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]) if args else frozenset()
            key, parameters = (id(scope), "seeded"), (lambda: mine)
        elif scope.kind != "function" or scope.params is None:
            key, parameters = (id(scope), "none"), frozenset  # only a function is handed values
        elif live is None:
            key, parameters = (id(scope), "live"), (lambda: self.live_of(scope, self.live()))
        else:
            mine = self.live_of(scope, live)
            key, parameters = (id(scope), mine), (lambda: mine)
        found = self._grads.get(key)
        if found is None:
            top = None if scope is self.scopes[0] else (lambda: self.grad(self.scopes[0]))
            found = self._grads[key] = Grad(self, scope, parameters, top)
        return found

    def live(self) -> frozenset:
        if self._live is None:
            self._live = live_parameters(self)
        return self._live

    @staticmethod
    def live_of(scope: Scope, live: frozenset) -> frozenset:
        """The parameters of ``scope`` that ``live`` (``param@function`` keys) names."""
        args = scope.params
        return frozenset(p for p in (a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs])
                         if f"{p}@{scope.name}" in live)

    @property
    def class_names(self) -> frozenset:
        found = self._memo.get("classes")
        if found is None:
            found = self._memo["classes"] = frozenset(s.name for s in self.scopes if s.kind == "class")
        return found

    def same_classes(self, cls: Scope) -> list[Scope]:
        """Every class of the module named as ``cls`` is: the walker keeps one class per name,
        the first it meets (``scan.scan_classes``), and gives it every such class's methods."""
        return [c for c in self.scopes if c.kind == "class" and c.name == cls.name]

    def may_be_module(self, cls: Scope, seen: frozenset = frozenset()) -> bool:
        """Whether ``self.x`` in the class ``cls`` may be a trainable (``ClassInfo.may_be_module``:
        an ``nn.Module`` by its base's name, or by a base class in the module, or a class with a
        base the module does not define that is not plainly data, ``scan._PLAIN_BASES``)."""
        plain, suffix = _plain_bases()
        for same in self.same_classes(cls):
            for base in same.bases:
                for qual in self.quals(base):
                    if qual.startswith("torch.nn.") or qual in ("nn.Module", "Module") or qual.endswith(
                            ("LightningModule", ".Module")):
                        return True  # (``scan_classes.resolve`` asks the name first)
                    last = qual.rsplit(".", 1)[-1]
                    parents = [p for p in self.scopes if p.kind == "class" and p.name == last and id(p) not in seen]
                    if parents:
                        if any(self.may_be_module(p, seen | {id(same)}) for p in parents):
                            return True
                    elif not (last in plain or suffix.search(qual)):
                        return True
        return False

    def class_attributes(self, cls: Scope, seen: frozenset = frozenset()) -> dict[str, bool]:
        """``X`` → whether it may hold a module, for every ``self.X`` the class (any class of its
        name, and its base classes in the module) binds in a method (``ClassInfo.attrs``, from
        ``scan.module_info``: a constructor call, read through ``.to(…)`` and kin)."""
        key = ("attrs", cls.name, seen)
        found = self._memo.get(key)
        if found is None:
            found = {}
            for same in self.same_classes(cls):
                for scope in self.scopes:
                    if scope.owner is same:
                        for names, value in _assignments(scope):
                            for name in names:
                                if name.startswith("self.") and name.count(".") == 1:
                                    found[name[5:]] = found.get(name[5:], False) or _may_construct(value)
                bases = {q.rsplit(".", 1)[-1] for base in same.bases for q in self.quals(base)}
                for parent in self.scopes:
                    if parent.kind == "class" and parent.name in bases and parent.name not in seen:
                        for name, module in self.class_attributes(parent, seen | {cls.name}).items():
                            found[name] = found.get(name, False) or module
            self._memo[key] = found
        return found

    @property
    def def_names(self) -> frozenset:
        """The names of the module's functions and methods."""
        found = self._memo.get("defs")
        if found is None:
            found = self._memo["defs"] = frozenset(s.name for s in self.scopes if s.kind in ("function", "method"))
        return found

    def may_save(self, scope: Scope) -> bool:
        """Whether an op in ``scope`` may save a tensor for backward."""
        return scope.save or (self.saving_module and scope.call)

    def may_edit(self, scope: Scope) -> bool:
        """Whether ``scope`` may edit a tensor in place."""
        return scope.edit or (self.inplace_module and scope.call)

    def may_switch_recording(self, expr: ast.expr) -> bool:
        """Whether ``expr``, a ``with`` item, may be one the walker takes to switch recording off
        or on, and so neither evaluates nor binds (``Walker.with_``)."""
        target = expr.func if type(expr) is ast.Call else expr
        name = dotted(target)
        return name is not None and any(q.rsplit(".", 1)[-1] in _RECORDING for q in self.quals(name))

    def opens_nograd(self, expr: ast.expr) -> bool:
        """Whether ``expr`` (a decorator, a ``with`` item) surely opens a region that records
        nothing (``scan.decorated_nograd``, ``Walker.with_``): every import of its name is one."""
        target = expr.func if type(expr) is ast.Call else expr
        name = dotted(target)
        return name is not None and self.quals(name) <= nograd_names()

    # ---- GL005 (c) ----

    def sequential_edit(self) -> bool:
        """An in-place module right after one that may save its output, among the items of an
        ``nn.Sequential(…)`` (``Walker.sequential``: the positional items but the starred)."""
        for call in self.sequentials:
            items = [a for a in call.args if type(a) is not ast.Starred]
            for previous, item in zip(items, items[1:]):
                if self.builds(item, "inplace") and self.builds(previous, "output"):
                    return True
        return False

    # ---- what calls do, for GL005 (a) ----

    def calls_module(self, func: ast.expr, what: str, scope: Scope | None = None) -> bool:
        """Whether calling ``func`` in ``scope`` may run a ``torch.nn`` module that saves its
        ``"input"``, its ``"output"``, or is ``"inplace"`` (``Walker.apply_module``; the walker
        knows a module only from its constructor): a constructor called at once
        (``nn.ReLU()(x)``); ``self.act(x)`` in a method, where the class (or a base class in the
        module) or the method binds ``self.act`` to one (``ClassInfo.attrs``); another name, or
        an attribute of one (``policy.act(x)``), or an item of one, whose last name some
        assignment in the module binds to one or to a copy of one (``_holders``). A longer chain
        (``self.block.act(x)``) is a method call: no module is applied."""
        if not (self.inplace_module if what == "inplace" else self.saving_module):
            return False
        while type(func) is ast.Subscript:
            func = func.value
        # (``scan.module_info`` reads through ``.to(…)``, ``.cuda()``, ``.eval()`` and kin)
        while type(func) is ast.Call and type(func.func) is ast.Attribute and func.func.attr in MOVES:
            func = func.func.value
        if type(func) is ast.Call:
            return self.builds(func, what)
        name = dotted(func)
        if name is None or name.count(".") > 1:
            return False
        last = name.rsplit(".", 1)[-1]
        if name.startswith("self.") and scope is not None:
            return last in self._bound_here(scope, what) or (
                scope.owner is not None and last in self._class_holders(scope.owner, what))
        return last in self._holders(what)

    def _bound_here(self, scope: Scope, what: str) -> set[str]:
        """Last names ``scope`` itself binds to a module of the kind, or a copy of a holder."""
        key = ("here", id(scope), what)
        found = self._memo.get(key)
        if found is None:
            holders = self._holders(what)
            found = self._memo[key] = {
                n.rsplit(".", 1)[-1] for names, value in _assignments(scope)
                if self.builds(value, what) or not _copies(value).isdisjoint(holders) for n in names}
        return found

    def _class_holders(self, cls: Scope, what: str, seen: frozenset = frozenset()) -> set[str]:
        """``X`` for every ``self.X`` a method of ``cls``, or of a base class defined in the module,
        binds to a module of the kind (``scan.scan_classes``)."""
        key = ("class", id(cls), what)
        found = self._memo.get(key)
        if found is None:
            found = set()
            for same in self.same_classes(cls):
                for scope in self.scopes:
                    if scope.owner is same:
                        found.update(n[5:] for names, value in _assignments(scope) if self.builds(value, what)
                                     for n in names if n.startswith("self.") and n.count(".") == 1)
                bases = {q.rsplit(".", 1)[-1] for base in same.bases for q in self.quals(base)}
                for parent in self.scopes:
                    if parent.kind == "class" and parent.name in bases and id(parent) not in seen:
                        found |= self._class_holders(parent, what, seen | {id(same)})
            self._memo[key] = found
        return found

    def builds(self, expr: ast.expr, what: str) -> bool:
        """Whether ``expr`` constructs a ``torch.nn`` module that is ``"inplace"`` or may save
        its ``"input"`` or ``"output"`` (``scan.module_info``, which knows modules only by a name
        under ``torch.nn.``, reading through ``.to(…)`` and kin; an ``nn.Sequential`` is never in
        place and saves what its first item saves of its input, its last of its output)."""
        while type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr in MOVES:
            expr = expr.func.value
        if type(expr) is not ast.Call:
            return False
        name = dotted(expr.func)
        if name is None or (name.partition(".")[0] not in self.imports and not name.startswith("torch.nn.")):
            return False
        for qual in self.quals(name):
            if not qual.startswith("torch.nn."):
                continue
            last = qual.rsplit(".", 1)[-1]
            if last == "Sequential":
                items = [a for a in expr.args if type(a) is not ast.Starred]
                if what != "inplace" and items and self.builds(items[0 if what == "input" else -1], what):
                    return True
            elif what == "inplace":
                if true(next((k.value for k in expr.keywords if k.arg == "inplace"), None)) or (
                        last in self.positional and any(map(true, expr.args))):
                    return True
            elif last in module_tables()[what]:
                return True
        return False

    def _holders(self, what: str) -> set[str]:
        """Last names of what may hold a module of the kind (see ``calls_module``): the targets
        of an assignment whose value builds one (``builds``), or copies a holder (``_copies``)."""
        key = ("holders", what)
        if key in self._memo:
            return self._memo[key]
        assigns = [(names, _copies(value), self.builds(value, what))
                   for scope in self.scopes for names, value in _assignments(scope)]
        holders: set[str] = set()
        grew = True
        while grew:
            grew = False
            for names, copied, builds in assigns:
                lasts = {n.rsplit(".", 1)[-1] for n in names}
                if (builds or not copied.isdisjoint(holders)) and not holders.issuperset(lasts):
                    holders |= lasts
                    grew = True
        self._memo[key] = holders
        return holders

    def op_saves(self, func: ast.expr) -> bool:
        """Whether the walker may record saves for a call of ``func`` by the op's name: a tensor
        method or a torch function named like a measured op that saves; a bare name only when it
        is imported from torch (``Walker.torch_call``; other names go to ``Walker.name_call``)."""
        if type(func) is ast.Attribute:
            return func.attr in self.ops
        if type(func) is ast.Name:
            return any(q.startswith("torch") and q.rsplit(".", 1)[-1] in self.ops
                       for q in self.imports.get(func.id, ()))
        return False

    def call_edits(self, node: ast.Call, edits: set, scope: Scope | None = None) -> None:
        """The names a call edits in place: a tensor method's receiver (``Walker.method_call``);
        the first argument of a torch function that is in place (``Walker.torch_call``), and of a
        call that may run an in-place module (``Walker.apply_module``); an ``out=`` argument."""
        func = node.func
        positional = [a for a in node.args if type(a) is not ast.Starred]
        first = positional[0] if positional else None
        if type(func) is ast.Attribute and func.attr in self.methods:
            edits.add(self.edit_base(func.value))
        keywords = {k.arg: k.value for k in node.keywords}
        if "out" in keywords:
            edits.add(self.edit_base(keywords["out"]))
        if first is None:
            return
        for qual in self.torch_quals(func):
            last = qual.rsplit(".", 1)[-1]
            if (last in self.methods or (qual.startswith("torch.nn.functional.") and last.endswith("_")
                                          and not last.endswith("__"))
                    or true(keywords.get("inplace"))
                    or (last in self.positional and any(map(true, positional)))):
                edits.add(self.edit_base(first))
        if self.calls_module(func, "inplace", scope):
            edits.add(self.edit_base(first))

    def torch_quals(self, func: ast.expr) -> list[str]:
        """The callee's qualified names under which the walker takes it for a torch function:
        its head is imported and it resolves under ``torch``."""
        name = dotted(func)
        if name is None or name.partition(".")[0] not in self.imports:
            return []
        return [q for q in self.quals(name) if q.startswith("torch")]

    @staticmethod
    def edit_base(expr: ast.AST) -> str | None:
        """``flow._edit_base`` on an ``ast`` expression, with ``.data`` dropped as ``Walker.edit`` does."""
        views = view_methods()
        while True:
            if type(expr) is ast.Subscript:
                expr = expr.value
            elif type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr in views:
                expr = expr.func.value
            else:
                break
        name = dotted(expr)
        return name[: -len(".data")] if name and name.endswith(".data") else name


_RECORDING = frozenset({"no_grad", "inference_mode", "enable_grad", "set_grad_enabled"})


def _may_construct(expr) -> bool:
    """Whether ``scan.module_info`` may find a module in ``expr``: a call, read through
    ``.to(…)`` and kin."""
    while type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr in MOVES:
        expr = expr.func.value
    return type(expr) is ast.Call


def _assignments(scope: Scope):
    """(names bound, value) for each assignment in ``scope``."""
    for node in scope.nodes:
        kind = type(node)
        if kind is ast.Assign:
            yield [n for t in node.targets for n in bound_names(t)], node.value
        elif (kind is ast.AnnAssign or kind is ast.NamedExpr) and node.value is not None:
            yield bound_names(node.target), node.value


def _copies(expr) -> set[str]:
    """The last names of what a value computed by ``expr`` may be a copy of, module and all: a
    name or attribute, an item of one, a branch of ``if``/``or`` (``Value.join`` keeps the
    module; an operator, a call or a container makes a value without one: ``Value.__or__``)."""
    names: set[str] = set()
    stack = [expr]
    while stack:
        expr = stack.pop()
        kind = type(expr)
        if kind is ast.Name:
            names.add(expr.id)
        elif kind is ast.Attribute:
            names.add(expr.attr)
        elif kind is ast.Subscript or kind is ast.NamedExpr or kind is ast.Await or kind is ast.Starred:
            stack.append(expr.value)
        elif kind is ast.IfExp:
            stack += (expr.body, expr.orelse)
        elif kind is ast.BoolOp:
            stack += expr.values
    return names


@lru_cache(maxsize=1)
def _plain_bases() -> tuple[frozenset, re.Pattern]:
    from gradlint.analysis.scan import _PLAIN_BASE_SUFFIX, _PLAIN_BASES

    return frozenset(_PLAIN_BASES), _PLAIN_BASE_SUFFIX

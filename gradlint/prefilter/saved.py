"""GL005 (a): an in-place edit of a name that may hold a saved-for-backward record, where it is made.

An edit is a subscript assignment (any store context), an augmented assignment, a tensor
in-place method (``saves.inplace_methods``), a torch function that is in place (one of those
names, ``F.…_``, ``inplace=True``, a literal ``True`` where ``saves.inplace_argument`` takes it),
an ``out=`` argument, or a call of something that may hold an in-place module; it edits the name
``flow._edit_base`` names (``Scan.call_edits``).

A record is put on a name by an op that may save, outside a region that records nothing: a
``*``, ``/``, ``**`` or ``@`` (``+``/``-`` save nothing) with an operand that may require grad and
one that may be a tensor (``Walker.binary``, ``grad.Grad``), or a call of an op whose measured
entry saves something (matched by its last name) with an operand that may require grad
(``Walker.apply_saves``), marks its operands; a call of something that may hold a ``torch.nn``
module that saves its input marks its first argument (``Walker.apply_module``, which asks no
more); a value made by such an op or module that may save its output holds one. Records then follow values as the walker computes
them (``SavedFlow``). They stay in their scope, except that a call of a module-level function by
its bare name hands the function's parameters the records its arguments may hold
(``Walker.name_call``, ``facts.saved_arguments``): the scopes are run again, seeded, until no
call seeds another function.

Nothing is recorded where the walker is sure to record nothing (``Walker.nograd``): in a function
decorated with ``torch.no_grad()``/``inference_mode()`` and in the body of a ``with`` of one of
them, but in a ``with`` that may switch recording back on (``enable_grad``,
``set_grad_enabled``) and after a ``set_grad_enabled(…)`` statement. Edits there still count.
"""
from __future__ import annotations

import ast

from gradlint.prefilter.flow import Hit, StatementFlow
from gradlint.prefilter.taint import Taint
from gradlint.prefilter.tables import (
    BINOPS_THAT_SAVE, REENABLES, bound_names, dotted, keeping_methods, output_tables, subtree,
)


def edits_a_saved_tensor(scan) -> bool:
    """Whether some scope of ``scan`` may edit in place a tensor a recorded op saved."""
    seeded: set[str] = set()
    ran: set[tuple[int, bool]] = set()
    while True:
        seeds: set[str] = set()
        for scope in scan.scopes:
            if scope.kind == "class":
                continue  # the walker never walks a class body
            is_seeded = scope.kind == "function" and scope.name in seeded
            if not (is_seeded or scan.may_save(scope)):
                continue  # no name there can hold a record
            if not (scan.may_edit(scope) or not scope.bare_calls.isdisjoint(scan.toplevel)):
                continue  # nothing to edit, and no record handed to another function
            if (id(scope), is_seeded) in ran:
                continue
            ran.add((id(scope), is_seeded))
            flow = SavedFlow(scan, scope, is_seeded)
            if flow.run():
                return True
            seeds |= flow.seeds
        if seeds <= seeded:
            return False
        seeded |= seeds


class SavedFlow(StatementFlow):
    """Which names may hold a saved-for-backward record at each edit, statement by statement as
    ``Walker`` goes. Order matters: ``x = self.conv(x)`` marks the old ``x`` and binds a new one
    that holds no record unless the op saves its output, so a later ``x += y`` edits nothing saved.

    Within a statement, the edits are judged after every record the statement makes, both before
    its bindings (``q = q.add_(1)`` edits the old ``q``) and after them (a walrus, a subscript
    target after a name target). A binding drops a name's record unless the value may hold one
    (an op that may save its output, or a name that may hold one: a copy, a view); a name keeps,
    as its aliases, every name its value was computed from (an edit of a view or a detached alias
    checks its base's records). Nothing drops a record otherwise (a backward frees them in the
    walker: ignored), and a ``:=`` never drops one (the walker forgets a comprehension's
    bindings). ``seeds`` collects the module-level functions a call hands a record to."""

    def __init__(self, scan, scope, seeded: bool):
        super().__init__(scope.body, scan.headers)
        self.scan = scan
        self.scope = scope
        self.saved: set[str] = set()
        self.aliases: dict[str, frozenset] = {}
        self.seeds: set[str] = set()
        self.out_ops, self.out_binops, _ = output_tables()
        self.nograd = scope.decorated_nograd  # and nothing recorded until something switches it on
        self.grad = scan.grad(scope, seeded=seeded)
        if scope.kind in ("function", "method"):
            # A function reads a global with its alias (``Walker.lookup``), which then names
            # this scope's binding of that name: a top-level `v = buf[:2]` makes `v.add_()`
            # here an edit of the local `buf`.
            self.aliases = dict(scan.global_aliases())
        if seeded and scope.params is not None:
            args = scope.params
            self.saved.update(a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs])

    # ---- the state ----

    def copy(self) -> tuple[set, dict]:
        return set(self.saved), dict(self.aliases)

    def set(self, state: tuple[set, dict]) -> None:
        self.saved, self.aliases = set(state[0]), dict(state[1])

    @staticmethod
    def join(a: tuple[set, dict], b: tuple[set, dict]) -> tuple[set, dict]:
        aliases = dict(a[1])
        for name, names in b[1].items():
            aliases[name] = aliases.get(name, frozenset()) | names
        return a[0] | b[0], aliases

    # ---- statements ----

    def with_(self, stmt) -> None:
        self.with_items(stmt)  # evaluated before the region starts (``Walker.with_``)
        outer = self.nograd
        if any(self.scan.opens_nograd(i.context_expr) for i in stmt.items):
            self.nograd = True
        elif _reenables(self.scan, [n for i in stmt.items for n in subtree(i.context_expr)]):
            self.nograd = False  # `with torch.enable_grad():`, `with torch.set_grad_enabled(…):`
        self.block(stmt.body)
        self.nograd = outer

    def effects(self, roots: list, bindings: list = (), loop_target: bool = False) -> None:
        scan = self.scan
        if (roots and type(roots[0]) is ast.Expr and type(roots[0].value) is ast.Call
                and _reenables(scan, [roots[0].value.func])):
            self.nograd = False  # `torch.set_grad_enabled(…)` as a statement: until further notice
        nodes = self.nodes(roots)
        edits: set = set()
        walrus, calls = [], []
        for node in nodes:
            kind = type(node)
            if kind is ast.BinOp:
                if not self.nograd and isinstance(node.op, BINOPS_THAT_SAVE) and self.operator_saves(node):
                    self.saved.update(n for n in (dotted(node.left), dotted(node.right)) if n)
            elif kind is ast.Call:
                scan.call_edits(node, edits, self.scope)
                if type(node.func) is ast.Name and node.func.id in scan.toplevel:
                    calls.append(node)
                if self.nograd:
                    pass
                elif scan.op_saves(node.func) and self.call_saves(node):
                    operands = [a for a in node.args if type(a) is not ast.Starred]
                    if type(node.func) is ast.Attribute:
                        operands.append(node.func.value)
                    self.saved.update(n for n in map(dotted, operands) if n)
                elif scan.calls_module(node.func, "input", self.scope):
                    # a module saves its first argument (``Walker.apply_module``)
                    first = next((a for a in node.args if type(a) is not ast.Starred), None)
                    name = dotted(first) if first is not None else None
                    if name:
                        self.saved.add(name)
            elif kind is ast.Subscript:
                if type(node.ctx) is ast.Store:
                    edits.add(scan.edit_base(node))
            elif kind is ast.AugAssign:
                edits.add(scan.edit_base(node.target))
            elif kind is ast.NamedExpr:
                walrus.append(node)
        # The edits (and what calls hand on) are judged against the records before the
        # statement's bindings (an edit in the value, `q = q.add_(1)`, is made before `q` is
        # rebound) and after them (a walrus inside, a subscript target after a name target).
        edits.discard(None)
        self.judge(edits, calls)
        bound = []
        for target, value in bindings:
            bound += self.bind(target, value, loop_target)
        for node in walrus:
            self.bind(node.target, node.value, keep=True)
        self.judge(edits, calls)
        # Then what the statement leaves: a rebinding with nothing saved in its value drops.
        for name, keeps in bound:
            if not keeps:
                self.saved.discard(name)

    def operator_saves(self, node: ast.BinOp) -> bool:
        """An operand may be a tensor, and one may require grad (``Walker.binary``)."""
        grad = self.grad
        return ((grad.tensor(node.left) or grad.tensor(node.right))
                and (grad.requires(node.left) or grad.requires(node.right)))

    def call_saves(self, node: ast.Call) -> bool:
        """An op's operand (its receiver or an argument) may require grad (``Walker.apply_saves``)."""
        grad = self.grad
        func = node.func
        return ((type(func) is ast.Attribute and grad.requires(func.value))
                or any(grad.requires(a) for a in node.args) or any(grad.requires(k.value) for k in node.keywords))

    def judge(self, edits: set, calls: list) -> None:
        """Hit if an edited name may hold a record, or it or a prefix of it may share storage
        with a name that may (``Walker.lookup`` of an unbound ``q.real`` is ``q``'s value with
        its records dropped, its alias kept). A module-level function handed an argument that
        may hold a record is seeded."""
        saved, aliases = self.saved, self.aliases
        for name in edits:
            if name in saved:
                raise Hit
            while True:
                if not aliases.get(name, frozenset()).isdisjoint(saved):
                    raise Hit
                if "." not in name:
                    break
                name = name.rsplit(".", 1)[0]
        for call in calls:
            if call.func.id not in self.seeds and any(
                    self.holds_record(a) for a in [*call.args, *(k.value for k in call.keywords)]):
                self.seeds.add(call.func.id)

    def holds_record(self, expr) -> bool:
        """Whether the value of ``expr`` may hold a record (``Value.saved``)."""
        carried, output = set(), [False]
        self.carries(expr.value if type(expr) is ast.Starred else expr, carried, output)
        return output[0] or not carried.isdisjoint(self.saved)

    def bind(self, target, value, loop_target: bool = False, keep: bool = False) -> list:
        """Bind ``target`` to ``value``: (name, whether it may hold a record) per name bound."""
        carried, output = set(), [False]
        self.carries(value, carried, output)
        sources: set[str] = set()
        aliases_of(self.scan, value, sources)
        for name in list(sources):
            sources |= self.aliases.get(name, frozenset())
        carries = output[0] or not carried.isdisjoint(self.saved)
        # A tuple or loop target's value holds no record (``Walker.bind``, ``loop_target``).
        single = type(target) in (ast.Name, ast.Attribute) and not loop_target
        found = []
        for name in bound_names(target):
            keeps = carries and single
            if keep:
                self.aliases[name] = self.aliases.get(name, frozenset()) | sources
                if keeps:
                    self.saved.add(name)
                continue
            self.aliases[name] = frozenset(sources)
            if keeps:
                self.saved.add(name)
            found.append((name, keeps))
        return found

    def carries(self, expr, names: set, output: list) -> None:
        """The names whose records a value computed by ``expr`` may hold (a lookup, a view or an
        in-place method of one: ``Walker.lookup``, ``method_call``; a branch of ``x if c else y``
        or ``x or y``: ``Value.join``), and whether an op that saves its output makes it (not
        where nothing is recorded). An operator or any other call makes a new value:
        ``Value.__or__`` and ``replace(…, saved=EMPTY)`` drop the records of its operands."""
        kind = type(expr)
        if kind is ast.Name or kind is ast.Attribute:
            name = dotted(expr)
            if name:
                names.add(name)
            elif kind is ast.Attribute:
                self.carries(expr.value, names, output)
        elif kind is ast.Call:
            if not self.nograd and self.saves_output(expr):
                output[0] = True
            func = expr.func
            if type(func) is ast.Attribute and (func.attr in keeping_methods() or func.attr in self.scan.methods):
                self.carries(func.value, names, output)
            elif expr.args and ("Variable" in self.scan.lasts(func)
                                or (type(func) is ast.Name and func.id in ("float", "int"))):
                # `Variable(x)` is x; ``name_call`` hands back `float(x)`'s argument value
                self.carries(expr.args[0], names, output)
        elif kind is ast.BinOp:
            if not self.nograd and isinstance(expr.op, self.out_binops) and self.operator_saves(expr):
                output[0] = True
        elif kind is ast.IfExp:
            self.carries(expr.body, names, output)
            self.carries(expr.orelse, names, output)
        elif kind is ast.BoolOp:
            for part in expr.values:
                self.carries(part, names, output)
        elif kind is ast.NamedExpr or kind is ast.Await or kind is ast.Starred:
            self.carries(expr.value, names, output)

    def saves_output(self, node: ast.Call) -> bool:
        func = node.func
        if self.scan.calls_module(func, "output", self.scope):
            return True
        if type(func) is ast.Attribute:
            op = func.attr in self.out_ops
        elif type(func) is ast.Name:
            op = any(q.startswith("torch") and q.rsplit(".", 1)[-1] in self.out_ops
                     for q in self.scan.imports.get(func.id, ()))
        else:
            op = False
        return op and self.call_saves(node)


def aliases_of(scan, expr, names: set) -> None:
    """The names a value computed by ``expr`` may share storage with (``Value.alias``: set
    by a subscript, a cut, a view; kept by lookups, ``Value.result`` of a unary operator or
    ``.T``, a comprehension's element, an attribute's base): every name, and every prefix of
    a dotted name, at those positions."""
    kind = type(expr)
    if kind is ast.Name:
        names.add(expr.id)
    elif kind is ast.Attribute:
        name = dotted(expr)
        if name:
            names.add(name)
        aliases_of(scan, expr.value, names)
    elif kind is ast.Subscript or kind is ast.NamedExpr or kind is ast.Await or kind is ast.Starred:
        aliases_of(scan, expr.value, names)
    elif kind is ast.UnaryOp:  # `-q`: ``Value.result`` keeps the alias
        aliases_of(scan, expr.operand, names)
    elif kind is ast.ListComp or kind is ast.SetComp or kind is ast.GeneratorExp:
        # ``Walker.comprehension`` returns its element's value, alias kept
        aliases_of(scan, expr.elt, names)
        for comp in expr.generators:
            aliases_of(scan, comp.iter, names)
    elif kind is ast.Call:
        func = expr.func
        if type(func) is ast.Attribute and func.attr in keeping_methods():
            aliases_of(scan, func.value, names)
        elif expr.args and ("Variable" in scan.lasts(func)
                            or (type(func) is ast.Name and func.id in ("float", "int"))):
            # `Variable(x)` is x; ``name_call`` hands back ``float(x)``'s argument value
            aliases_of(scan, expr.args[0], names)
    elif kind is ast.IfExp:
        aliases_of(scan, expr.body, names)
        aliases_of(scan, expr.orelse, names)
    elif kind is ast.BoolOp:
        for part in expr.values:
            aliases_of(scan, part, names)


def _reenables(scan, nodes) -> bool:
    """Whether anything in ``nodes`` may name ``enable_grad`` or ``set_grad_enabled``."""
    for node in nodes:
        kind = type(node)
        if kind is ast.Attribute:
            if node.attr in REENABLES:
                return True
        elif kind is ast.Name:
            if any(q.rsplit(".", 1)[-1] in REENABLES for q in scan.quals(node.id)):
                return True
    return False


def record_holders(scan, scope, start: frozenset) -> Taint:
    """The names of ``scope`` that may hold a saved-for-backward record anywhere in it, without
    regard to order, with ``start`` (parameters callers may hand one): operands of the ops and
    modules that may save (not asking whether an operand requires grad), and what is computed
    from one or from an op or module that may save its output (``Walker.name_call`` seeds a
    function's parameters with what its arguments hold)."""
    out_ops, out_binops, _ = output_tables()
    saved = set(start)
    for node in scope.binops:
        saved.update(n for n in (dotted(node.left), dotted(node.right)) if n)
    for node in scope.nodes:
        if type(node) is ast.Call:
            operands = []
            if scan.op_saves(node.func):
                operands = [a for a in node.args if type(a) is not ast.Starred]
                if type(node.func) is ast.Attribute:
                    operands.append(node.func.value)
            elif scan.calls_module(node.func, "input", scope):
                operands = [a for a in node.args if type(a) is not ast.Starred][:1]
            saved.update(n for n in map(dotted, operands) if n)

    def output(summary) -> bool:
        if summary.opaque_call or not summary.operators.isdisjoint(out_binops):
            return True  # (a call of a call or an item: a module, say, built on the spot)
        for callee in summary.callees:
            if any(q.rsplit(".", 1)[-1] in out_ops for q in scan.quals(callee)) or scan.calls_module(
                    _chain(callee), "output", scope):
                return True
        return False

    def read(expr) -> tuple[bool, frozenset]:
        summary = scan.summary(expr)
        return output(summary), summary.prefixes

    return Taint(scope, frozenset(saved), read)


def _chain(name: str) -> ast.expr:
    """The ``ast`` of the dotted name ``name``."""
    parts = name.split(".")
    expr: ast.expr = ast.Name(parts[0], ast.Load())
    for part in parts[1:]:
        expr = ast.Attribute(expr, part, ast.Load())
    return expr

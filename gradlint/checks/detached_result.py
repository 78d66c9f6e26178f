"""GL001 detached-result: a ``.detach()`` / ``.data`` whose result is returned or becomes the loss.

A cut is reported only where the trainables upstream of it get no gradient another way: a
detached copy kept for logging never reaches a sink; a stop-gradient beside an attached branch
of the same model (SimSiam), one in front of a different model (a GAN's discriminator step), and
one whose upstream is trained through another loss or output of the module (actor-critic
advantages, a VAE's sample()) are intended. A detached return counts only from a function on a
training path (``_Uses``): a helper whose result the file never trains with exports values.

PyTorch: https://pytorch.org/docs/stable/generated/torch.Tensor.detach.html
"""
from __future__ import annotations

import ast
import re

from gradlint.analysis.imports import dotted
from gradlint.analysis.tree import children
from gradlint.checks import Report
from gradlint.checks import arguments as _arguments
from gradlint.rule import BY_CODE

RULE = BY_CODE["GL001"]

# A cut of these is a target or teacher branch, cut on purpose.
# ("baseline" is not one: REINFORCE's learned baseline is trained.)
_INTENDED = {"target", "teacher", "ema", "momentum", "frozen", "old", "prev", "pretrained"}
# What these return is trained through (a training step, a loss function).
_TRAINING = {"train", "training", "loss", "losses", "step", "objective", "criterion"}
# What these return are results handed out, not values computed with.
_EVALUATION = {"eval", "evaluate", "evaluation", "valid", "validate", "validation", "test", "predict",
               "prediction", "infer", "inference", "metric", "metrics", "score", "sample", "generate",
               "visualize", "visualise", "plot", "log"}
# Names of recurrent state handed back detached for the next call (truncated BPTT).
_STATE = {"h", "c", "hx", "cx", "hn", "cn", "hidden", "hiddens", "state", "states", "memory", "memories",
          "mem", "mems", "cache", "carry", "past", "kv"}


def check(facts):
    reported = set()
    sinks = _sinks(facts)
    uses = None
    for ret in facts.returns:
        fn = ret.function
        if fn.name == "<module>" or fn.nograd or fn.trains_locally:
            continue
        if _says(fn.name, _INTENDED) or _says(fn.class_name, _INTENDED):
            continue
        # What a training step or a loss function returns is trained through, whatever else
        # the module returns attached.
        elsewhere = frozenset() if _says(fn.name, _TRAINING) else _elsewhere(sinks, ret.node)
        # Each element of a returned tuple is an output of its own (`return logits,
        # aux_logits.detach()`), except state handed back for the next call (TBPTT's hidden).
        parts = ([value for expr, value in ret.parts if not _says(_last_name(expr), _STATE)]
                 if ret.parts else [ret.value])
        for value in parts:
            # A detached by-product of what a sibling output trains (`return loss, logits.detach()`).
            siblings = frozenset().union(*(other.roots for _, other in ret.parts if other is not value))
            for cut in _broken(value, facts, elsewhere):
                if ret.parts and cut.upstream <= siblings:
                    continue
                if any(name.endswith("@input") for name in cut.upstream) and (
                        fn.name != "forward" or value.cuts[cut.node] or value.post):
                    continue  # only a forward's whole output cut from its own input is that sure
                uses = uses or _Uses(facts)
                if not uses.trained_through(fn.node):
                    continue  # an export: features for a probe, kNN, a plot; nothing here trains with it
                yield from _report_return(cut, fn, reported)

    for site in facts.backwards:
        for cut in _broken(site.value, facts, _elsewhere(sinks, site.node)):
            if site.loop is not None and cut.loop is site.loop and cut.carried:
                continue  # truncated backpropagation: state cut between iterations on purpose
            if cut.node not in reported:
                reported.add(cut.node)
                yield _report(cut, f"becomes part of the loss `{site.root}` (backward at line {{sink}})", sink=site.node)


def _last_name(expr) -> str | None:
    """``h`` for ``h.detach()``, ``self.hidden[0].detach()`` → ``hidden``."""
    while True:
        if isinstance(expr, ast.Call) and (expr.args or expr.keywords) \
                and _last_name(expr.func) in ("stack", "cat", "concat"):
            expr = _arguments(expr)[0][2]  # `torch.stack(memories)`: the list names what it holds
        elif isinstance(expr, ast.Call):
            expr = expr.func
        elif isinstance(expr, ast.Attribute) and expr.attr in ("detach", "data", "detach_", "clone", "contiguous"):
            expr = expr.value
        elif isinstance(expr, ast.Subscript):
            expr = expr.value
        elif isinstance(expr, ast.Attribute):
            return expr.attr
        elif isinstance(expr, ast.Name):
            return expr.id
        else:
            return None


def _says(name: str | None, words: set[str]) -> bool:
    """Whether one of the words of ``name`` (``compute_ema_target``, ``EMATeacher``,
    ``self.target_net``) is in ``words``; ``semantic`` does not say ``ema``."""
    if not name:
        return False
    spaced = re.sub(r"([a-z\d])([A-Z])|([A-Z])([A-Z][a-z])", r"\1\3_\2\4", name)
    return any(word in words for word in re.split(r"[_.\d@]+", spaced.lower()) if word)


def _parameters(node) -> set[str]:
    params = node.args
    return {p.arg for p in [*params.posonlyargs, *params.args, *params.kwonlyargs]}


def _report_return(cut, fn, reported):
    if _says(fn.name, _EVALUATION) and (fn.class_name is None or {u.split("@")[0] for u in cut.upstream} <= _parameters(fn.node)):
        return  # `def predict(model, x): return model(x).detach()` hands out results
    if cut.node not in reported:
        reported.add(cut.node)
        yield _report(cut, f"is returned from `{fn.name}()`")


def _sinks(facts) -> dict:
    """Where a value leaves the code to be trained through: backward roots, and tensors
    returned from functions. Sink node -> the trainable roots attached there."""
    sinks = {site.node: site.value.roots for site in facts.backwards}
    for ret in facts.returns:
        if ret.function.name != "<module>" and ret.value.tensor:
            sinks[ret.node] = ret.value.roots
    return sinks


def _elsewhere(sinks: dict, here) -> frozenset:
    return frozenset().union(*(roots for node, roots in sinks.items() if node is not here))


def _overlap(upstream, roots) -> bool:
    """Shared trainables; ``self`` (the whole module, as in ``self.forward(x)``) shares with
    every ``self.x``."""
    if upstream & roots:
        return True
    whole = "self" in upstream or "self" in roots
    return whole and any(r.startswith("self.") for r in upstream | roots)


def _optimized(cut, facts) -> bool:
    """An optimizer of this module updates what the cut starves: it was meant to train.
    (``cut.keys`` holds ``Net.*`` for a cut inside ``Net``, so ``Adam(model.parameters())``
    on a ``Net`` covers it; a probe's ``SGD(model.head.parameters())`` does not.)"""
    return bool(cut.keys & facts.optimized) or bool(_resolve(cut.upstream, facts) & facts.optimized)


def _named_in_optimizer(cut, facts) -> bool:
    """An optimizer is given this very module (``model.pretrained_encoder.parameters()``), not
    just the whole model around it."""
    return any(not key.endswith(".*") and key in facts.optimized for key in cut.keys)


def _inside_one_model(cut, value, facts) -> bool:
    """``return self.head(self.backbone(x).detach())`` in a model's own method, in a file that
    builds no optimizer: everything trainable in the value comes after the cut, and both sides
    are parts of one model, which its training code (elsewhere) most likely optimizes whole —
    not a GAN's discriminator step, which lives in training code. A file with optimizers says
    what they train, and ``_optimized`` decides there."""
    fn = cut.function
    if fn is None or fn.class_name is None or facts.optimized or facts.optimizers_open or value.roots:
        return False  # (value.roots: something trainable stays attached beside it: an auxiliary head)
    names = cut.upstream | value.post
    return all(n == "self" or n.startswith("self.") for n in names)


def _frozen(cut, facts) -> bool:
    """Every optimizer of the module is known, and none updates what the cut starves."""
    if not facts.optimized or facts.optimizers_open or _optimized(cut, facts):
        return False
    # A model parameter no call site resolves could be anything the optimizers hold.
    return not any("@" in name for name in _resolve(cut.upstream, facts))


def _resolve(names, facts, depth: int = 0) -> set:
    """Model parameters (``net@embed``) replaced by what their callers pass, transitively."""
    out = set()
    for name in names:
        sources = facts.param_sources.get(name)
        if sources and depth < 8:
            out |= _resolve(sources, facts, depth + 1)
        else:
            out.add(name)
    return out


def _broken(value, facts, attached_elsewhere):
    """The cuts in ``value`` that starve the trainables upstream of them."""
    for node, companions in value.cuts.items():
        cut = facts.cuts.get(node)
        if cut is None or not cut.upstream:
            continue
        if any(_says(root, _INTENDED) for root in cut.upstream) and not _named_in_optimizer(cut, facts):
            continue  # a target or teacher, unless an optimizer is handed exactly that module
        if cut.upstream & companions:
            continue  # the same trainables stay attached beside the cut (SimSiam)
        if value.post and not (cut.upstream & value.post) and not _optimized(cut, facts) \
                and not _inside_one_model(cut, value, facts):
            continue  # the cut feeds a different model (a GAN's discriminator step, a probe)
        if _frozen(cut, facts) or cut.upstream <= facts.frozen:
            continue  # no optimizer of this module updates it: it is frozen on purpose (a teacher)
        if _overlap(cut.upstream, attached_elsewhere):
            continue  # they are trained through another loss or output (actor-critic, sample())
        yield cut


def _report(cut, where: str, **refs):
    # A parameter taken to be a model is keyed `model@train`: show the name the user wrote.
    names = sorted({name.split("@")[0] for name in cut.upstream})
    shown = {name.split("@")[0]: name for name in sorted(cut.upstream)}  # one spelling, whatever the set's order
    upstream = ", ".join(
        "this module's parameters (`self`)" if name == "self"
        else f"whatever computed `{name}`" if shown[name].endswith("@input")
        else f"`{name}`" for name in names)
    expr = f"{cut.tensor}{cut.kind}"
    verb = "gets" if len(names) == 1 and "self" not in names else "get"
    return Report(
        RULE, cut.node,
        f"the result of `{expr}` {where}, so {upstream} {verb} no gradient through it",
        hint=(f"use the attached `{cut.tensor}` there and detach only the copy you log or store; "
              f"if the cut is intended, add `# noqa: GL001`"),
        details={"tensor": cut.tensor, "cut": cut.kind, "upstream": names},
        refs=refs,
    )


# ---- where the file takes a function's result --------------------------------------------------

# Decorators that leave a function called as it is written (anything else may register it:
# its result goes where this file cannot see).
_PLAIN_DECORATORS = {"staticmethod", "classmethod", "torch.no_grad", "torch.inference_mode"}
# Methods that put their argument into the receiver (`feats.append(e)`): the container holds it.
_FILLS = {"append", "extend", "insert", "add", "update", "put", "setdefault", "appendleft"}
# A value handed to a call named with one of these, or bound to a name with one, is a loss term.
_LOSS = {"loss", "losses", "criterion", "objective", "entropy"}


class _Unit:
    """One statement, or a compound statement's header, as the use analysis sees it."""

    __slots__ = ("owner", "reads", "targets", "names", "dotted", "bare_attrs", "calls", "backward", "returns")

    def __init__(self, owner, reads, targets):
        self.owner = owner  # the innermost function (or the module) it is in
        self.reads = [r for r in reads if r is not None]
        self.targets = [t for t in targets if t is not None]
        self.names: set[str] = set()  # names read (a call's own name excluded)
        self.dotted: set[str] = set()  # attribute chains read (`self.bank`, `self.bank.T`)
        self.bare_attrs: set[str] = set()  # `x.name` read without calling it
        self.calls: list[ast.Call] = []
        self.backward = False  # backward(), manual_backward(), autograd.grad()/backward()
        self.returns = False  # a return or a yield: what it reads leaves through the owner


class _Uses:
    """Whether what a function returns is trained through, by this file's own evidence.

    A ``forward`` or ``__call__`` (with the helpers whose results it passes on) is a module's
    training path wherever its training code lives; so is a function named like a training step or a loss. Any other
    function is trained through only when the file takes its result somewhere a gradient is
    asked for: into a ``backward()`` / ``autograd.grad()`` root, a loss term (a call or a name
    that says loss, criterion, objective or entropy), a return of a function that is itself
    trained through, an argument of a function of this file that does one of these, or
    somewhere the file cannot follow (passed as a callback, a decorated function). A result
    the file never takes, or takes only for numbers, plots, a kNN lookup or a print, is an
    export of values, not a cut of a training path. Names are followed through assignments,
    containers, calls and returns, flow-insensitively within a function (with the functions
    nested in it); an attribute it is stored in (``self.bank``), and a module-level name, in
    every function of the file. Where it is unsure it sees a use: the cut is reported as before.
    """

    def __init__(self, facts):
        self.imports = facts.imports
        self.module = facts.module
        self.units: dict[int, list[_Unit]] = {id(self.module): []}
        self.defs: dict[str, list[tuple[ast.FunctionDef, bool]]] = {}  # name -> (def, is a method)
        self.memo: dict[tuple, bool] = {}
        self._block(self.module.body, [self.module], in_class=False)
        self.all_units = self.units[id(self.module)]

    # ---- the index ----

    def _block(self, statements, owners, in_class):
        for stmt in statements:
            self._statement(stmt, owners, in_class)

    def _body(self, node, owners, in_class=False):
        self._block(node.body, owners, in_class)

    def _unit(self, owners, reads, targets=(), returns=False):
        unit = _Unit(owners[-1], reads, targets)
        unit.returns = returns
        for expr in unit.reads:
            self._scan(expr, unit)
        for target in unit.targets:  # `d[key] = e`, `self.x[i] = e`: the index is read
            if isinstance(target, ast.Subscript):
                for element in _subscript_elements(target.slice):
                    self._scan(element, unit)
        for owner in owners:
            self.units[id(owner)].append(unit)
        return unit

    def _statement(self, stmt, owners, in_class):
        kind = type(stmt)
        if kind is ast.Assign:
            self._unit(owners, [stmt.value], stmt.targets)
        elif kind is ast.AnnAssign:
            self._unit(owners, [stmt.value], [stmt.target] if stmt.value is not None else [])
        elif kind is ast.AugAssign:
            self._unit(owners, [stmt.value, stmt.target], [stmt.target])
        elif kind is ast.Expr:
            self._unit(owners, [stmt.value])
        elif kind is ast.Return:
            self._unit(owners, [stmt.value], returns=True)
        elif kind is ast.Raise:
            self._unit(owners, [stmt.exc])  # libcst held `from cause` in a node of its own, not read
        elif kind is ast.Assert:
            self._unit(owners, [stmt.test, stmt.msg])
        elif kind is ast.Delete:
            # `del a, b` was one tuple, whose elements the scan's stack visits last first
            self._unit(owners, stmt.targets[::-1])
        elif kind in (ast.FunctionDef, ast.AsyncFunctionDef):
            self.defs.setdefault(stmt.name, []).append((stmt, in_class))
            for deco in stmt.decorator_list:
                self._unit(owners, [deco])
            self.units[id(stmt)] = []
            self._body(stmt, [*owners, stmt])
        elif kind is ast.ClassDef:
            self._unit(owners, list(stmt.bases))
            self._body(stmt, owners, in_class=True)
        elif kind in (ast.If, ast.While):
            self._unit(owners, [stmt.test])
            self._body(stmt, owners)
            self._block(stmt.orelse, owners, in_class=False)  # an `elif` is an If in it
        elif kind in (ast.For, ast.AsyncFor):
            self._unit(owners, [stmt.iter], [stmt.target])
            self._body(stmt, owners)
            self._block(stmt.orelse, owners, in_class=False)
        elif kind in (ast.With, ast.AsyncWith):
            for item in stmt.items:
                self._unit(owners, [item.context_expr],
                           [item.optional_vars] if item.optional_vars is not None else [])
            self._body(stmt, owners)
        elif kind in _TRY:
            self._body(stmt, owners)
            for handler in stmt.handlers:
                self._body(handler, owners)
            for part in (stmt.orelse, stmt.finalbody):
                self._block(part, owners, in_class=False)
        elif kind is ast.Match:
            self._unit(owners, [stmt.subject])
            for case in stmt.cases:
                self._body(case, owners)

    def _scan(self, node, unit):
        stack = [node]
        while stack:
            node = stack.pop()
            kind = type(node)
            if kind is ast.Name:
                unit.names.add(node.id)
                continue
            if kind is ast.Attribute:
                unit.bare_attrs.add(node.attr)
                chain = dotted(node)
                if chain is not None:
                    unit.dotted.add(chain)
                stack.append(node.value)
                continue
            if kind is ast.Call:
                unit.calls.append(node)
                func = node.func
                if isinstance(func, ast.Attribute):
                    if func.attr in ("backward", "manual_backward"):
                        unit.backward = True
                    chain = dotted(func.value)
                    if chain is not None and "." in chain:
                        unit.dotted.add(chain)  # `self.bank.mean(0)` reads `self.bank`
                    stack.append(func.value)  # the called attribute itself is not a bare reference
                elif not isinstance(func, ast.Name):
                    stack.append(func)
                if (self.imports.qualname(func) or "") in ("torch.autograd.grad", "torch.autograd.backward"):
                    unit.backward = True
                stack.extend(value for _, _, value in _arguments(node))
                continue
            if kind is ast.arg:  # a lambda's parameter: a name (libcst read it as one)
                unit.names.add(node.arg)
            if kind is ast.Yield or kind is ast.YieldFrom:
                unit.returns = True
            if kind is ast.NamedExpr:
                unit.targets.append(node.target)
            stack.extend(_children(node))

    # ---- the questions ----

    def trained_through(self, fn) -> bool:
        """Whether what ``fn`` returns reaches training, by this file's evidence."""
        key = ("fn", id(fn))
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = False  # a call cycle adds nothing
        self.memo[key] = result = self._trained_through(fn)
        return result

    def _trained_through(self, fn) -> bool:
        name = fn.name
        if name in ("forward", "__call__") or _says(name, _TRAINING):
            return True
        for deco in fn.decorator_list:
            expr = deco.func if isinstance(deco, ast.Call) else deco
            if (self.imports.qualname(expr) or "") not in _PLAIN_DECORATORS:
                return True
        method = any(d is fn and is_method for d, is_method in self.defs.get(name, ()))
        for unit in self.all_units:
            if (name in unit.bare_attrs) if method else (name in unit.names):
                return True  # referred to without being called: a callback, a hook, a property
            for call in unit.calls:
                if self._calls(call, name, method) and self._flows(unit.owner, set(), call):
                    return True
        return False

    @staticmethod
    def _calls(call, name, method) -> bool:
        func = call.func
        if method:
            return isinstance(func, ast.Attribute) and func.attr == name
        return isinstance(func, ast.Name) and func.id == name

    def _parameter_trained_through(self, fn, param: str) -> bool:
        key = ("param", id(fn), param)
        if key not in self.memo:
            self.memo[key] = False
            self.memo[key] = self._flows(fn, {param}, None)
        return self.memo[key]

    def _flows(self, scope, tainted: set, source) -> bool:
        """Whether the value of ``source`` (a call) or of the names ``tainted``, in the function
        ``scope``, reaches a place a gradient is asked for. Attributes it is stored in
        (``self.bank``) are followed into every function of the file."""
        tainted = set(tainted)
        attrs: set[str] = set()
        seen: set[int] = set()
        changed = True
        while changed:
            changed = False
            units = self.units.get(id(scope), ())
            local = {id(unit) for unit in units}
            for unit in [*units, *(self.all_units if attrs else ())]:
                if id(unit) in seen:
                    continue
                if not (unit.names & tainted and id(unit) in local or unit.dotted & attrs
                        or (source is not None and any(c is source for c in unit.calls))):
                    continue
                seen.add(id(unit))
                if unit.backward:
                    return True
                if unit.returns and unit.owner is not self.module and self.trained_through(unit.owner):
                    return True
                mentioned = tainted | attrs
                for call in unit.calls:
                    if call is not source and self._feeds_callee(call, mentioned, source):
                        return True
                    if _is_loss(call) and any(self._mentions(value, mentioned, source) for _, _, value in _arguments(call)):
                        return True  # `F.cross_entropy(head(z), y)`, `criterion(z, y)`: a loss term
                    func = call.func
                    if isinstance(func, ast.Attribute) and func.attr in _FILLS \
                            and any(self._mentions(value, mentioned, source) for _, _, value in _arguments(call)):
                        receiver = dotted(func.value)
                        if receiver is None:
                            return True  # kept where this file cannot follow
                        into = attrs if "." in receiver else tainted
                        if receiver not in into:
                            into.add(receiver)
                            changed = True
                for target in unit.targets:
                    names = _bound_names(target)
                    if names is None or any(_says(name.rsplit(".", 1)[-1], _LOSS) for name in names):
                        return True  # a loss term, or stored where this file cannot follow
                    for name in names:
                        into = attrs if "." in name else tainted
                        if name not in into:
                            into.add(name)
                            changed = True
        return False

    def _feeds_callee(self, call, tainted, source) -> bool:
        """A tainted argument handed to a function of this file that trains with it."""
        func = call.func
        if isinstance(func, ast.Name):
            name, method = func.id, False
        elif isinstance(func, ast.Attribute):
            name, method = func.attr, True
        else:
            return False
        for fn, is_method in self.defs.get(name, ()):
            if is_method != method:
                continue
            params = fn.args
            positional = [p.arg for p in [*params.posonlyargs, *params.args]]
            if is_method and not any(
                    (self.imports.qualname(d) or "") == "staticmethod" for d in fn.decorator_list):
                positional = positional[1:]
            keywords = {p.arg for p in [*params.posonlyargs, *params.args, *params.kwonlyargs]}
            index = 0
            for keyword, star, value in _arguments(call):
                if keyword is None and not star:
                    param = positional[index] if index < len(positional) else None
                    index += 1
                elif keyword is not None:
                    param = keyword if keyword in keywords else None
                else:
                    param = None
                if not self._mentions(value, tainted, source):
                    continue
                if param is None or self._parameter_trained_through(fn, param):
                    return True
        return False

    @staticmethod
    def _mentions(expr, tainted, source) -> bool:
        stack = [expr]
        while stack:
            node = stack.pop()
            if node is source:
                return True
            kind = type(node)
            if kind is ast.Name:
                if node.id in tainted:
                    return True
                continue
            if kind is ast.Attribute:
                if dotted(node) in tainted:
                    return True
                stack.append(node.value)
                continue
            # libcst held a keyword argument's name and a lambda's parameter as names, and this
            # reading counted them: `f(target=1)` mentions `target`.
            if kind is ast.Call and any(k.arg in tainted for k in node.keywords if k.arg is not None):
                return True
            if kind is ast.arg and node.arg in tainted:
                return True
            stack.extend(_children(node))
        return False


def _is_loss(call) -> bool:
    """``F.cross_entropy(…)``, ``self.criterion(…)``, ``nn.MSELoss()(…)``, ``kl_div(…)``."""
    func = call.func
    while isinstance(func, ast.Call):
        func = func.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return _says(name, _LOSS) or name == "kl_div"


def _bound_names(target) -> set[str] | None:
    """The names an assignment target binds: ``d`` for ``d[k] = …``, ``self.bank`` for
    ``self.bank = …``; None for a target it cannot name (``f(x).y = …``)."""
    if isinstance(target, (ast.Name, ast.Attribute)):
        name = dotted(target)
        return {name} if name is not None else None
    if isinstance(target, (ast.Tuple, ast.List)):
        out: set[str] = set()
        for element in target.elts:
            inner = _bound_names(element)
            if inner is None:
                return None
            out |= inner
        return out
    if isinstance(target, ast.Starred):
        return _bound_names(target.value)
    if isinstance(target, ast.Subscript):
        base = dotted(target.value)
        return {base} if base is not None else None
    return None


_TRY = (ast.Try, getattr(ast, "TryStar", ast.Try))


def _children(node) -> list:
    """``tree.children``, but a conditional expression's test first, in the order libcst held
    its fields: the scans visit what they find in that order."""
    if type(node) is ast.IfExp:
        return [node.test, node.body, node.orelse]
    return children(node)


def _subscript_elements(index) -> list:
    """The elements libcst split ``d[i, j]`` into; ``d[(i, j)]`` is one (a parenthesized tuple
    starts before its first element)."""
    if type(index) is ast.Tuple and index.elts and (index.lineno, index.col_offset) == (
            index.elts[0].lineno, index.elts[0].col_offset):
        return index.elts
    return [index]

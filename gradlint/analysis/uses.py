"""What a file does with its functions' results and its networks: the use analysis GL001 asks
before it reports a cut returned from a function.

``Uses`` answers whether what a function returns is trained through, by the file's own
evidence (a training path, a loss term, a backward root, somewhere the file cannot follow);
``Program`` holds the facts about the file that replace words in its names (issue 12): the
networks it copies another network into, the returned values its callers hand back into the
next call, the functions that put a model in eval mode, the callables that are torch losses.
Both read ``ast`` nodes and the module's facts (``facts.module_facts``); neither changes them.
"""
from __future__ import annotations

import ast

from gradlint.analysis.imports import dotted
from gradlint.analysis.scan import _parameter_owners
from gradlint.analysis.tree import BINDING_SCOPES, children, enclosing, iter_nodes, parents

# Lightning's hook whose result its Trainer differentiates: an API name, as `forward` is, on a
# class whose base this file does not define.
_LOSS_HOOKS = {"training_step"}
# torch.nn.functional's losses (torch's names, not the program's); the `torch.nn.*Loss` modules
# are recognised by their class.
_FUNCTIONAL_LOSSES = {
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "cosine_embedding_loss", "cross_entropy",
    "ctc_loss", "gaussian_nll_loss", "hinge_embedding_loss", "huber_loss", "kl_div", "l1_loss",
    "margin_ranking_loss", "mse_loss", "multi_margin_loss", "multilabel_margin_loss",
    "multilabel_soft_margin_loss", "nll_loss", "poisson_nll_loss", "smooth_l1_loss", "soft_margin_loss",
    "triplet_margin_loss", "triplet_margin_with_distance_loss",
}


def arguments(call: ast.Call) -> list[tuple[str | None, str, ast.expr]]:
    """``(keyword, star, value)`` per argument of ``call`` in source order, as libcst's
    ``Call.args`` held them: ``*x`` is ``(None, "*", x)``, ``**x`` is ``(None, "**", x)``.
    ``ast`` keeps keywords after positionals, but ``f(a=1, *b)`` writes a keyword first."""
    found = [(None, "*", a.value) if type(a) is ast.Starred else (None, "", a) for a in call.args]
    if call.keywords:
        found += [(k.arg, "" if k.arg is not None else "**", k.value) for k in call.keywords]
        if call.args:
            nodes = [*call.args, *call.keywords]
            order = sorted(range(len(found)), key=lambda i: (nodes[i].lineno, nodes[i].col_offset))
            found = [found[i] for i in order]
    return found


# ---- what the file's code does with its functions and networks ---------------------------------

class Program:
    """Facts about the file that replace words in its names (issue 12): which networks it copies
    another network into (a target or moving average: a deep copy, a parameter-by-parameter
    update from another network, a ``load_state_dict`` of another's state), which returned values its callers hand
    back into the next call (recurrent state), which functions put a model in eval mode, which
    callables are torch losses."""

    def __init__(self, facts):
        self.imports = facts.imports
        self.module = facts.module
        self.followers: set[str] = set()
        self.loss_callables: set[str] = set()
        self.assigns: list[ast.Assign] = []
        self.instances: dict[str, set[str]] = {}  # class of this file -> names bound to an instance
        self.class_of: dict[int, ast.ClassDef] = {}  # method node -> its class
        self.own_classes: set[str] = set()
        # The module's memoized walk (every fact gathered here is order-free).
        for node in iter_nodes(self.module):
            kind = type(node)
            if kind is ast.ClassDef:
                self.own_classes.add(node.name)
                for stmt in node.body:
                    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self.class_of[id(stmt)] = node
            elif kind is ast.Assign:
                self.assigns.append(node)
                value = node.value
                if type(value) is ast.Call:
                    qual = self.imports.qualname(value.func) or ""
                    last = qual.rsplit(".", 1)[-1]
                    for target in node.targets:
                        name = dotted(target)
                        if name is None:
                            continue
                        if qual.startswith("torch.nn.") and last.endswith("Loss"):
                            self.loss_callables.add(name)
                        if type(value.func) is ast.Name:
                            self.instances.setdefault(value.func.id, set()).add(name)
                        if qual in ("copy.deepcopy", "copy.copy") and value.args and dotted(value.args[0]) not in (None, name):
                            self.followers.add(name)  # `target = copy.deepcopy(online)`: a copy of another network
                        elif _copied_by_method(value) not in (None, name):
                            # `self._old_network = self._network.copy().freeze()`: the network's own copy method
                            self.followers.add(name)
            elif kind in (ast.For, ast.AsyncFor):
                self.followers |= _copied_into(node)
            elif kind is ast.Call and isinstance(node.func, ast.Attribute) and node.func.attr == "load_state_dict" \
                    and node.args and type(node.args[0]) is ast.Call and isinstance(node.args[0].func, ast.Attribute) \
                    and node.args[0].func.attr == "state_dict":
                into, source = dotted(node.func.value), dotted(node.args[0].func.value)
                if into is not None and into != source:
                    self.followers.add(into)  # `target.load_state_dict(online.state_dict())`
        self.followers |= _handed_to_followers(self.module, self.imports)
        self._handed_back: dict[int, set[int]] = {}

    def loss_hook(self, fn) -> bool:
        """Lightning's ``training_step`` on a class whose base comes from outside this file and
        torch: its Trainer differentiates what it returns."""
        cls = self.class_of.get(id(fn))
        if cls is None or fn.name not in _LOSS_HOOKS:
            return False
        for base in cls.bases:
            qual = self.imports.qualname(base) or ""
            if qual and qual.split(".")[-1] not in self.own_classes and not qual.startswith("torch."):
                return True
        return False

    def is_loss(self, call) -> bool:
        """``F.cross_entropy(…)``, ``nn.MSELoss()(…)``, ``self.criterion(…)`` where
        ``self.criterion = nn.CrossEntropyLoss()``: torch's losses, by what they are."""
        func = call.func
        if type(func) is ast.Call:
            qual = self.imports.qualname(func.func) or ""
            return qual.startswith("torch.nn.") and qual.endswith("Loss")
        qual = self.imports.qualname(func) or ""
        if qual.startswith("torch.nn.functional.") and qual.rsplit(".", 1)[-1] in _FUNCTIONAL_LOSSES:
            return True
        name = dotted(func)
        return name is not None and name in self.loss_callables

    def evaluates(self, fn) -> bool:
        """The function puts a model in eval mode (``model.eval()``, ``model.train(False)``):
        what it returns is a result handed out (predictions, samples), not computed with."""
        for node in iter_nodes(fn):
            if type(node) is ast.Call and isinstance(node.func, ast.Attribute):
                if node.func.attr == "eval" and not node.args and not node.keywords:
                    return True
                if node.func.attr == "train" and node.args and type(node.args[0]) is ast.Constant \
                        and node.args[0].value is False:
                    return True
        return False

    def handed_back(self, fn) -> set[int]:
        """The positions of ``fn``'s returned tuple that a caller in this file passes back into
        the next call of the same function (``out, h = model(x, h)``): recurrent state, cut
        between calls on purpose (truncated backpropagation)."""
        key = id(fn.node)
        if key not in self._handed_back:
            self._handed_back[key] = self._find_handed_back(fn)
        return self._handed_back[key]

    def _find_handed_back(self, fn) -> set[int]:
        found: set[int] = set()
        for assign in self.assigns:
            call = assign.value
            if type(call) is not ast.Call or not self._calls(call, fn):
                continue
            given = {dotted(n) for arg in [*call.args, *(k.value for k in call.keywords)]
                     for n in ast.walk(arg) if type(n) in (ast.Name, ast.Attribute)} - {None}
            for target in assign.targets:
                for i, element in enumerate(_flat(target)):
                    name = dotted(element)
                    if name is not None and name in given:
                        found.add(i)
        return found

    def discarded(self, fn) -> set[int]:
        """The positions of ``fn``'s returned tuple that every call of it unpacks into ``_``
        (``logits, _ = model(x, y)``) or into a name its function never reads: values no one
        takes, so nothing trains through them. Only
        where this file makes every call: it calls ``fn`` and no other file calls it or builds
        its class."""
        tree = parents(self.module)
        found = None
        for node in iter_nodes(self.module):
            if type(node) is not ast.Call or not self._calls(node, fn):
                continue
            up = tree.get(node)
            if type(up) is not ast.Assign or len(up.targets) != 1 or type(up.targets[0]) is not ast.Tuple:
                return set()
            scope = enclosing(tree.get(up), tree, BINDING_SCOPES)
            # (or bound to a name its function never reads: `policy, free_code = model(…)` on a
            # path that leaves `free_code` out of every loss)
            read = {n.id for n in iter_nodes(scope, into_functions=False) if type(n) is ast.Name and type(n.ctx) is ast.Load} \
                if scope is not None else None
            here = {i for i, element in enumerate(up.targets[0].elts)
                    if type(element) is ast.Name and (element.id == "_" or (read is not None and element.id not in read))}
            found = here if found is None else found & here
            if not found:
                return set()
        project = self.imports.project
        # (asked last: the project's other files are read only where this file drops an element)
        if not found or (project is not None and project.called_elsewhere(fn.class_name or fn.name)):
            return set()
        return found

    def _calls(self, call, fn) -> bool:
        """Whether ``call`` calls ``fn``: a function by its name, a method by its attribute, a
        module's forward through a name bound to an instance of its class (or ``self(…)``)."""
        func = call.func
        if fn.class_name is None:
            return type(func) is ast.Name and func.id == fn.name
        if fn.name in ("forward", "__call__"):
            name = dotted(func)
            return name is not None and (name in self.instances.get(fn.class_name, ()) or name == "self")
        return isinstance(func, ast.Attribute) and func.attr == fn.name


def _flat(target) -> list:
    """A tuple target's elements, nested tuples flattened, as ``Return.parts`` flattens a
    returned tuple (``out, (h, c) = …``)."""
    if type(target) in (ast.Tuple, ast.List):
        out = []
        for element in target.elts:
            out.extend(_flat(element.value if type(element) is ast.Starred else element))
        return out
    return [target]


def _handed_to_followers(module: ast.Module, imports=None) -> set[str]:
    """The networks the file hands to a function that copies into its parameter
    (``momentum_update(encoder, encoder_ema, 0.99)`` with ``def momentum_update(online, ema,
    m)`` averaging ``online`` into ``ema``), of its own or of another file of the project
    (``TorchUtils.soft_update(source=critic, target=critic_target, tau=…)``), as the caller
    names them."""
    copying: dict[str, dict] = {}  # function as called -> {parameter: position}
    for fn in module.body:
        if type(fn) in (ast.FunctionDef, ast.AsyncFunctionDef):
            _note_copying(fn, fn.name, copying)
    project = getattr(imports, "project", None)
    found = set()
    for node in iter_nodes(module):
        if type(node) is not ast.Call:
            continue
        called = dotted(node.func)
        if called is not None and called not in copying and project is not None and node.args + node.keywords:
            # (a function of another file of the project, parsed once per lint as its summary is)
            qual = imports.qualname(node.func)
            fn = project.function_def(qual) if qual else None
            if fn is not None:
                _note_copying(fn, called, copying)
            else:
                copying[called] = {}
        if called in copying:
            for param, at in copying[called].items():
                handed = node.args[at] if at < len(node.args) else next(
                    (k.value for k in node.keywords if k.arg == param), None)
                name = dotted(handed) if handed is not None else None
                if name is not None:
                    found.add(name)
                    found |= _zipped_from(module, name, node)
    return found


def _zipped_from(module: ast.Module, name: str, call: ast.Call) -> set[str]:
    """What a loop around ``call`` binds ``name`` from, element by element (``for critic,
    critic_target in zip(self.nets["critic"], self.nets["critic_target"])``:
    ``self.nets.critic_target``, as the walk names a string key)."""
    tree = parents(module)
    found, up = set(), tree.get(call)
    while up is not None:
        if type(up) in (ast.For, ast.AsyncFor) and type(up.target) is ast.Tuple and type(up.iter) is ast.Call \
                and dotted(up.iter.func) == "zip" and len(up.iter.args) == len(up.target.elts):
            for element, source in zip(up.target.elts, up.iter.args):
                if type(element) is ast.Name and element.id == name:
                    held = _keyed_name(source)
                    if held is not None:
                        found.add(held)
        up = tree.get(up)
    return found


def _keyed_name(expr) -> str | None:
    """``self.nets["critic_target"]`` as ``self.nets.critic_target``; a dotted name as it is."""
    if type(expr) is ast.Subscript and type(expr.slice) is ast.Constant and type(expr.slice.value) is str:
        base = _keyed_name(expr.value)
        return f"{base}.{expr.slice.value}" if base is not None else None
    return dotted(expr)


def _note_copying(fn, called: str, copying: dict) -> None:
    """``copying[called]``: the parameters of ``fn`` a loop of it copies into, by position."""
    params = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
    into = set().union(*(_copied_into(n) for n in ast.walk(fn) if type(n) in (ast.For, ast.AsyncFor)))
    copying[called] = {p: i for i, p in enumerate(params) if p in into}


def _copied_into(loop) -> set[str]:
    """The networks a loop over two networks' parameters edits in place from the other's:
    ``for p_t, p in zip(target.parameters(), online.parameters()): p_t.data.mul_(m).add_(p.data)``
    (a moving average, a hard copy). One network's own parameters edited alone (weight
    clipping) are not copied from anything."""
    owners = _parameter_owners(loop)
    if len(set(owners.values())) < 2:
        return set()
    found = set()
    for stmt in loop.body:
        for node in ast.walk(stmt):
            edited = None
            if type(node) is ast.Call and isinstance(node.func, ast.Attribute) \
                    and node.func.attr.endswith("_") and not node.func.attr.endswith("__"):
                edited = node.func.value
            elif type(node) in (ast.Assign, ast.AugAssign):
                targets = node.targets if type(node) is ast.Assign else [node.target]
                edited = next((t for t in targets if isinstance(t, (ast.Attribute, ast.Subscript))), None)
            while isinstance(edited, (ast.Attribute, ast.Subscript, ast.Call)):
                edited = edited.func if type(edited) is ast.Call else edited.value
            if type(edited) is ast.Name and edited.id in owners:
                reads_other = any(type(n) is ast.Name and n.id in owners and owners[n.id] != owners[edited.id]
                                  for n in ast.walk(loop))
                if reads_other:
                    found.add(owners[edited.id])
    return found


# ---- where the file takes a function's result --------------------------------------------------

# Decorators that leave a function called as it is written (anything else may register it:
# its result goes where this file cannot see).
_PLAIN_DECORATORS = {"staticmethod", "classmethod", "torch.no_grad", "torch.inference_mode"}
# Methods that put their argument into the receiver (`feats.append(e)`): the container holds it.
_FILLS = {"append", "extend", "insert", "add", "update", "put", "setdefault", "appendleft"}


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


class Uses:
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

    def __init__(self, facts, program):
        self.program = program
        self.imports = facts.imports
        self.leaves = facts.leaves
        self.returns = facts.returns
        self.module = facts.module
        self.units: dict[int, list[_Unit]] = {id(self.module): []}
        self.defs: dict[str, list[tuple[ast.FunctionDef, bool]]] = {}  # name -> (def, is a method)
        self.memo: dict[tuple, bool] = {}
        self._block(self.module.body, [self.module], in_class=False)
        self.all_units = self.units[id(self.module)]
        # Every call of the file by what it calls (``f(…)``: ("f", False); ``x.f(…)``: ("f",
        # True)), and every name and attribute referred to: the questions below ask them per
        # function, and a file has thousands of calls.
        self.callers: dict[tuple[str, bool], list] = {}
        self.referred: set[str] = set()
        self.referred_attrs: set[str] = set()
        self.unit_of: dict[int, _Unit] = {}  # id(call) -> the unit it is in
        self.local: dict[int, set[int]] = {}  # id(scope) -> ids of its units
        self.signatures: dict[int, tuple[list[str], set[str]]] = {}
        for unit in self.all_units:
            self.referred |= unit.names
            self.referred_attrs |= unit.bare_attrs
            for call in unit.calls:
                self.unit_of[id(call)] = unit
                func = call.func
                key = (func.id, False) if type(func) is ast.Name else \
                    (func.attr, True) if type(func) is ast.Attribute else None
                if key is not None:
                    self.callers.setdefault(key, []).append((unit, call))

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
                stack.extend(value for _, _, value in arguments(node))
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

    def reaches_backward(self, fn) -> bool:
        """Whether what ``fn`` returns is itself differentiated: it reaches a ``backward()`` or
        ``autograd.grad()`` root through assignments, containers and this file's functions
        (a training step's result, a loss function's), not only a loss term or another output."""
        key = ("strict", id(fn))
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = False
        self.memo[key] = result = self._reaches_backward(fn)
        return result

    def _reaches_backward(self, fn) -> bool:
        if self.program.loss_hook(fn):
            return True
        method = any(d is fn and is_method for d, is_method in self.defs.get(fn.name, ()))
        return any(self._flows(unit.owner, set(), call, strict=True)
                   for unit, call in self.callers.get((fn.name, method), ()))

    def _trained_through(self, fn) -> bool:
        name = fn.name
        if name in ("forward", "__call__") or self.program.loss_hook(fn):
            return True
        if any(ret.function.node is fn and ret.value.trainables & self.leaves for ret in self.returns):
            # Its result carries history from leaves this file makes to require grad: that is
            # what will be differentiated, here or by the file that imports it (a loss function).
            return True
        for deco in fn.decorator_list:
            expr = deco.func if isinstance(deco, ast.Call) else deco
            if (self.imports.qualname(expr) or "") not in _PLAIN_DECORATORS:
                return True
        method = any(d is fn and is_method for d, is_method in self.defs.get(name, ()))
        if name in (self.referred_attrs if method else self.referred):
            return True  # referred to without being called: a callback, a hook, a property
        return any(self._flows(unit.owner, set(), call) for unit, call in self.callers.get((name, method), ()))

    def _parameter_trained_through(self, fn, param: str, strict: bool = False) -> bool:
        key = ("param", id(fn), param, strict)
        if key not in self.memo:
            self.memo[key] = False
            self.memo[key] = self._flows(fn, {param}, None, strict)
        return self.memo[key]

    def _flows(self, scope, tainted: set, source, strict: bool = False) -> bool:
        """Whether the value of ``source`` (a call) or of the names ``tainted``, in the function
        ``scope``, reaches a place a gradient is asked for. Attributes it is stored in
        (``self.bank``) are followed into every function of the file. ``strict``: only a
        backward root counts (not a loss term, nor a place this file cannot follow)."""
        tainted = set(tainted)
        attrs: set[str] = set()
        seen: set[int] = set()
        changed = True
        units = self.units.get(id(scope), ())
        local = self.local.get(id(scope))
        if local is None:
            local = self.local[id(scope)] = {id(unit) for unit in units}
        at = self.unit_of.get(id(source)) if source is not None else None
        while changed:
            changed = False
            for unit in [*units, *(self.all_units if attrs else ())]:
                if id(unit) in seen:
                    continue
                if not (unit.names & tainted and id(unit) in local or unit.dotted & attrs or unit is at):
                    continue
                seen.add(id(unit))
                mentioned = tainted | attrs
                if strict:
                    # Only the value itself, passed on as it is (unpacked, indexed, averaged,
                    # scaled by a number), is differentiated: not one computed with other values
                    # (a target subtracted from a prediction).
                    if unit.backward and any(_copy_of(root, mentioned, source) for root in _backward_roots(unit, self.imports)):
                        return True
                    if unit.returns and unit.owner is not self.module and unit.reads \
                            and _copy_of(unit.reads[0], mentioned, source) and self.reaches_backward(unit.owner):
                        return True
                    for call in unit.calls:
                        if call is not source and self._feeds_callee(call, mentioned, source, strict):
                            return True
                    if not (unit.reads and _copy_of(unit.reads[0], mentioned, source)):
                        continue
                    for target in unit.targets:
                        for name in _bound_names(target) or ():
                            into = attrs if "." in name else tainted
                            if name not in into:
                                into.add(name)
                                changed = True
                    continue
                if unit.backward:
                    return True
                if unit.returns and unit.owner is not self.module and self.trained_through(unit.owner):
                    return True
                for call in unit.calls:
                    if call is not source and self._feeds_callee(call, mentioned, source, strict):
                        return True
                    if not strict and self.program.is_loss(call) \
                            and any(self._mentions(value, mentioned, source) for _, _, value in arguments(call)):
                        return True  # `F.cross_entropy(head(z), y)`, `criterion(z, y)`: a loss term
                    func = call.func
                    if isinstance(func, ast.Attribute) and func.attr in _FILLS \
                            and any(self._mentions(value, mentioned, source) for _, _, value in arguments(call)):
                        receiver = dotted(func.value)
                        if receiver is None:
                            if strict:
                                continue
                            return True  # kept where this file cannot follow
                        into = attrs if "." in receiver else tainted
                        if receiver not in into:
                            into.add(receiver)
                            changed = True
                for target in unit.targets:
                    names = _bound_names(target)
                    if names is None:
                        if strict:
                            continue
                        return True  # stored where this file cannot follow
                    for name in names:
                        into = attrs if "." in name else tainted
                        if name not in into:
                            into.add(name)
                            changed = True
        return False

    def _feeds_callee(self, call, tainted, source, strict: bool = False) -> bool:
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
            signature = self.signatures.get(id(fn))
            if signature is None:
                params = fn.args
                positional = [p.arg for p in [*params.posonlyargs, *params.args]]
                if is_method and not any(
                        (self.imports.qualname(d) or "") == "staticmethod" for d in fn.decorator_list):
                    positional = positional[1:]
                keywords = {p.arg for p in [*params.posonlyargs, *params.args, *params.kwonlyargs]}
                signature = self.signatures[id(fn)] = (positional, keywords)
            positional, keywords = signature
            index = 0
            for keyword, star, value in arguments(call):
                if keyword is None and not star:
                    param = positional[index] if index < len(positional) else None
                    index += 1
                elif keyword is not None:
                    param = keyword if keyword in keywords else None
                else:
                    param = None
                if not (_copy_of(value, tainted, source) if strict else self._mentions(value, tainted, source)):
                    continue
                if param is None:
                    if strict:
                        continue
                    return True
                if self._parameter_trained_through(fn, param, strict):
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


def _backward_roots(unit, imports) -> list:
    """The roots of the backward calls of a unit: ``loss`` of ``loss.backward()``, of
    ``manual_backward(loss)`` and of ``autograd.grad(loss, …)``."""
    roots = []
    for call in unit.calls:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "backward":
            roots.append(func.value)
        elif isinstance(func, ast.Attribute) and func.attr == "manual_backward" and call.args:
            roots.append(call.args[0])
        elif (imports.qualname(func) or "") in ("torch.autograd.grad", "torch.autograd.backward") and call.args:
            roots.append(call.args[0])
    return roots


def _copy_of(expr, tainted, source) -> bool:
    """Whether ``expr`` is the tainted value itself, as passed on: ``out["loss"]``, ``loss.mean()``,
    ``loss / steps``, ``scaler.scale(loss)``, an unpacked call's result."""
    while True:
        if expr is source:
            return True
        kind = type(expr)
        if kind is ast.Name:
            return expr.id in tainted
        if kind is ast.Attribute:
            if dotted(expr) in tainted:
                return True
            expr = expr.value
        elif kind in (ast.Subscript, ast.Starred):
            expr = expr.value
        elif kind is ast.UnaryOp:
            expr = expr.operand
        elif kind is ast.BinOp:
            sides = [side for side in (expr.left, expr.right) if any(type(n) is ast.Name for n in ast.walk(side))]
            return bool(sides) and all(_copy_of(side, tainted, source) for side in sides)
        elif kind is ast.Call and isinstance(expr.func, ast.Attribute):
            func = expr.func
            receiver_copies = _copy_of(func.value, tainted, source)
            if receiver_copies:
                return True
            # `scaler.scale(loss)`: a method of something else handing the value through
            return len(expr.args) == 1 and not expr.keywords and _copy_of(expr.args[0], tainted, source)
        else:
            return False


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


def _copied_by_method(call: ast.Call) -> str | None:
    """What a chain of method calls copies: ``net`` of ``net.copy()`` or ``net.copy().freeze()``."""
    node = call
    while type(node) is ast.Call and type(node.func) is ast.Attribute:
        if node.func.attr == "copy" and not node.args and not node.keywords:
            return dotted(node.func.value)
        node = node.func.value
    return None

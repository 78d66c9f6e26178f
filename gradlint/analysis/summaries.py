"""What calling a function, method or module of this file does, in autograd's terms.

A summary is computed by the flow walker itself (``flow.Walker.summary_body``), run on the
function with each parameter seeded as a symbolic trainable root (``%k``): whatever reaches the
returned value from parameter ``k`` carries ``%k``, so what the body does to it (cut it with
``.detach()``, compute from it under ``torch.no_grad()``, pass it on, save it) is read off the
value the walker computes for the returns, not from a second set of syntactic rules. Call sites
(``flow.Walker.name_call``/``apply_module``) read summaries through ``facts.callee(qualname)``.

Parameter 0 of a method is the receiver; what the body reaches through ``self.x`` counts as
reached from parameter 0. Functions are summarized in source order, so a call of a function
defined later (or of itself) is read as unknown, as it was before summaries.
"""
from __future__ import annotations

import ast
import dataclasses
import weakref
from dataclasses import dataclass, field

from gradlint.analysis.imports import dotted
from gradlint.analysis.values import EMPTY, NOTHING_YET, Save

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
SYMBOL = "%"  # a seeded parameter's root: "%0", "%1", …


@dataclass(frozen=True)
class Summary:
    """What one call of the function does. Parameter indices count the receiver of a method as 0."""

    node: ast.AST = field(compare=False, hash=False)  # the def
    params: tuple = ()  # parameter names in order (positional, then keyword-only)
    positional: int = 0  # how many of params can be given by position (past them: ``star``'s)
    star: int = -1  # the index in ``params`` of ``*args``, which holds the positional arguments past them
    method: bool = False  # params[0] is the receiver (bound at the call, not passed)
    # The trainables the result carries that are no parameter: a global model, and for a method
    # the receiver's own members (``self.head``), named as the body names them.
    trainables: frozenset = EMPTY
    # Parameters whose autograd history reaches the result attached (not through a cut).
    passes: frozenset = EMPTY
    # Cut nodes inside it that the result descends from (``.detach()``, ``.data``, an expression
    # computed under no_grad) -> the parameters whose history the cut operand carried.
    cuts: dict = field(default_factory=dict, compare=False, hash=False)
    # cut node -> the Cut fact the summary walk recorded (kind, operand as written, region).
    cut_facts: dict = field(default_factory=dict, compare=False, hash=False)
    # cut node of another function -> the call in this body that reached it (`model.generate(…)`
    # running a method decorated `@torch.no_grad()`): where a caller of this file reports it
    cut_sites: dict = field(default_factory=dict, compare=False, hash=False)
    # cut node -> what stays attached beside that cut in the result, as the body combines them
    # (parameter indices, and the body's own trainables by name): a term the body adds whole
    # (``ce + w * mse(s, t).detach()``) has none, whatever else the result carries.
    beside: dict = field(default_factory=dict, compare=False, hash=False)
    # Its result is computed under no_grad/inference_mode from what it is given (no history).
    nograd: bool = False
    # Its returned tensor was saved for backward by the last op that computed it (a forward ending
    # in sigmoid/exp/relu/tanh): an in-place edit of the result breaks the caller's backward.
    saved_output: Save | None = None
    # Where every return is a tuple of the same length (``return mean, torch.exp(log_std)``): per
    # element, the Save of the op that saved that element (None: nothing saved it); the caller's
    # unpacking gives each name its own.
    saved_parts: tuple = field(default=(), compare=False, hash=False)
    # It calls backward()/autograd.grad() on a root it computes (not on a parameter handed straight
    # to it), where autograd's grad mode is the caller's; ``backward`` is that call.
    backprops: bool = False
    backward: ast.AST | None = field(default=None, compare=False, hash=False)
    # A backward it makes on what it computes even under its own `torch.enable_grad()`: a caller's
    # inference_mode still leaves that root without history.
    inference_backward: ast.AST | None = field(default=None, compare=False, hash=False)
    edits: frozenset = EMPTY  # parameters it edits in place
    # Its in-place edits of the very tensor a parameter was handed (`batch -= mean`): edit node ->
    # (that parameter, the Edit). A caller that hands a tensor an op saved breaks its backward.
    param_edits: dict = field(default_factory=dict, compare=False, hash=False)
    # A method's in-place edits of its receiver's own tensors as they were when called
    # (`self.queue[:, p:p + n] = keys.T`): edit node -> (the attribute, `.queue`, the Edit). A caller
    # whose recorded op saved that attribute before the call breaks its backward.
    own_edits: dict = field(default_factory=dict, compare=False, hash=False)
    # A method's saves of its receiver's own tensors (`self.sigma * self.epsilon` in a noisy
    # layer's forward saves the `epsilon` buffer): attribute -> the Saves. A caller that edits that
    # attribute later (`net.reset_noise()` before the backward) breaks that call's backward.
    own_saved: dict = field(default_factory=dict, compare=False, hash=False)
    returns_number: bool = False  # a Python number pulled out of a tensor (``.item()``), or a constant
    # its result was computed from what it is handed through an op autograd does not
    # differentiate (``argmax``, a comparison): handed history, the result lost it (``Value.lost``)
    lost: bool = False
    # the same, beside what other parameters pass attached (`tp / y.sum()` with `tp` of `probs >
    # 0.5`): lost where those are handed data, as a metric's labels are
    lost_beside: bool = False
    tensor: bool = False  # the result is known to be a tensor
    packed: bool = False  # the result may be a PackedSequence (``Value.packed``)
    generator: bool = False  # a generator: calling it runs nothing yet
    # rebuild node -> the parameters whose history it copied: the rebuilds of tensors with
    # history its result descends from (`return torch.tensor([torch.cos(a), torch.cos(b)])`)
    rebuilt: dict = field(default_factory=dict, compare=False, hash=False)
    # The `.item()`/`.numpy()`/`.tolist()` nodes its result descends from that pulled values out of
    # what it was handed (`np.exp(y_hat[v].detach().numpy())`): a caller that hands it tensors
    # with history and rebuilds the result has lost that history there.
    pulled: frozenset = field(default=frozenset(), compare=False, hash=False)
    # Of those, the ones a method pulled out of its receiver's own members (`w.norm().item()` of
    # `self.mlp[0].weight`): what the caller's receiver trains was pulled there.
    pulled_own: frozenset = field(default=frozenset(), compare=False, hash=False)
    # Of ``pulled``, those pulled out of what parameters were handed (`dist.entropy().mean()
    # .item()` of `dist`): pull -> those parameters' indices.
    pulled_params: dict = field(default_factory=dict, compare=False, hash=False)
    # Where every return is a tuple of one length: per element (nested tuples flattened), the
    # pulls of ``pulled`` it holds (`return rewards, means, actions` of a rollout pulling the
    # means out of the policy's outputs: `actions` holds none of them).
    pulled_parts: tuple = field(default=(), compare=False, hash=False)
    # Where every return is a dict display of the same keys (`return {"log_probs": taken,
    # "rewards": rewards}`): per key, the pulls of ``pulled`` it holds.
    pulled_fields: tuple | None = field(default=None, compare=False, hash=False)
    # Parameters it combines, as numbers, with a tensor in arithmetic its result descends from
    # (`nll * n + kl_weight * kl`): a number a caller pulled out of the record and hands there
    # enters that op as a constant.
    numbers_in_ops: frozenset = EMPTY
    # The parameters (by place) whose values go through an op not linear in them (`(p - t).norm()`):
    # a cut term added to what a caller hands there shapes the gradient, no dead term
    mixes: frozenset = field(default=EMPTY, compare=False, hash=False)
    # The parameters (by place) a return hands back as a view or alias on some path (`return
    # batch.squeeze(0)` in one branch, `torch.cat(…)` in the other): an edit of the result in
    # place may edit what the caller handed there
    views: frozenset = field(default=EMPTY, compare=False, hash=False)
    # The same dicts: per key, (parameter indices, own trainables) reaching it attached, as
    # ``trained_parts`` (`losses["d"]` of a GAN's forward trains the discriminator alone), and
    # the cuts of ``cuts`` it holds.
    trained_fields: tuple | None = field(default=None, compare=False, hash=False)
    # The same tuples: per element, whether it is known to require no grad (`return out,
    # logdet` where `logdet` is a NumPy determinant copied into a tensor).
    const_parts: tuple = field(default=(), compare=False, hash=False)
    # The same tuples: per element, whether it is a list, tuple or dict the body filled
    # (`return x0, highs` of a wavelet transform appending each level to `highs`): what the
    # caller assigns into it replaces an item, and edits no tensor.
    container_parts: tuple = field(default=(), compare=False, hash=False)
    # Parameters a recorded op inside saved for backward as they were handed (`self.conv(x)` in a
    # block's forward): an in-place edit of that argument after the call breaks the backward.
    saves: frozenset = EMPTY
    # Of ``saves``, those saved only for the gradient of other parameters (``initial * source``
    # saves ``source`` for ``initial``'s): k -> the parameters one of which must require grad
    save_needs: dict = field(default_factory=dict, compare=False, hash=False)
    # It returns a module it builds (`def build_generator(): return nn.Sequential(…)`): the name
    # a call binds holds a model.
    module: object = field(default=None, compare=False, hash=False)
    # Where every return is a tuple of one length (`return model, criterion, optimizer` from a
    # setup function): per element, ("module", ModuleInfo) for a model it builds, ("optimizer",
    # the elements whose parameters it updates) for an optimizer it builds, else None.
    built_parts: tuple = field(default=(), compare=False, hash=False)
    # Where every return is a tuple of one length (`return value_loss, policy_loss`): per element,
    # (the parameters whose history reaches it, the body's own trainables that do): the caller's
    # unpacking gives each name what its element carries, not what the whole tuple does.
    trained_parts: tuple = field(default=(), compare=False, hash=False)
    # Of those, per element, what reaches it only applied after a cut (``Value.post``, as
    # ``trained_parts`` splits it): `return loss_g, loss_d` with `loss_g` of `d(fake.detach())`.
    post_parts: tuple = field(default=(), compare=False, hash=False)
    # The same tuples: per element, the cuts of ``cuts`` it holds (`return loss,
    # entropies.detach()`: the second's alone).
    cut_parts: tuple = field(default=(), compare=False, hash=False)
    # Those tuples' nesting (``Return.shape``) where every return nests alike: `recon, latent, z
    # = model(x)` of `return x_hat, (mu.detach(), logvar.detach()), z` gives `latent` both cuts.
    part_shape: tuple = field(default=(), compare=False, hash=False)
    # ``alone(k, data)``: what parameter ``k`` is handed, wholly cut, has beside it in the result,
    # as the parameters whose values those are (`rec + beta * kl_normal(*latent)` of a loss object
    # handed the model's detached latents: none, a term of its own), or None where the function's
    # own trainables are. A walk of the function with that parameter cut, run only where a call
    # hands one so.
    alone: object = field(default=None, compare=False, hash=False)
    # ``bound(models)``: the summary of a plain function walked with the parameters ``models``
    # names bound to instances of the project's module classes (`render(field, deform, rays)`
    # handed a field whose forward cuts its input): what the call does with those models, which
    # the symbolic walk cannot say. None where the walk fails.
    bound: object = field(default=None, compare=False, hash=False)
    # The cuts of ``cuts`` that are a dead term of the result (`lbox += (1 - iou).mean()` beside
    # `lobj += bce(p, iou)` of one `iou.detach()`): a term of constants, whatever else uses them
    dead: frozenset = field(default=EMPTY, compare=False, hash=False)
    # It calls backward() on parameters handed straight to it (`def step(opt, loss):
    # loss.backward(); opt.step()`): per backward, in the order of the walk, (that parameter's
    # index, retain_graph, create_graph, the parameters it steps as optimizers after it, or for a
    # method the receiver's optimizers as written, `self.opt_d`); the call is a backward of what
    # the caller hands there, and a step between two of them updates what the second one's graph
    # saved (`d_loss.backward(); self.opt_d.step(); g_loss.backward()`); the backward call; and
    # whether the root is computed from that parameter alone (`bce(score, ones).backward()`), not
    # the parameter itself (a backward of the caller's value only where it hands a tensor).
    backprops_param: tuple | None = field(default=None, compare=False, hash=False)
    # Parameters whose history a backward inside reaches (`loss_v.backward()` of values a rollout
    # it is handed holds): a call trains what it hands them.
    trains_params: frozenset = field(default=EMPTY, compare=False, hash=False)
    # Parameters it switches to require grad as they were handed (`sr.requires_grad_(True)` in a
    # generator step handed `sr`), not as a leaf it differentiates against: parameter -> the
    # switch. A caller that hands one computed under no_grad has hidden that lost history.
    switched_params: dict = field(default_factory=dict, compare=False, hash=False)
    # (switch, name, the copies it holds) for each copy it switches on and returns (`c_loss = torch.tensor(losses)
    # .mean()`, `c_loss.requires_grad = True`, `return c_loss`): the caller that backpropagates
    # what it returns has had that switch silence the error the copy would raise.
    switched_returns: tuple = field(default=(), compare=False, hash=False)
    # The receiver's own optimizers a method steps after a backward of its own state (no
    # parameter's: `self.last_loss.backward()`, then `self.center_opt.step()`), as
    # ``backprops_param`` records them: (name, step call, members, handed in)
    own_steps: tuple = field(default=(), compare=False, hash=False)
    # (edit, member) for each in-place edit of the receiver's own parameters (a step of its
    # optimizer, `self.model.load_state_dict(self.keep_weight)`) made after what the method
    # returns was recorded through them: a backward of it after the call reads edited weights
    stale_return: tuple = field(default=(), compare=False, hash=False)
    # (backward node, the parameters its root descends from) for each backward(retain_graph=True)
    # outside any loop of its own of a root it computes (``_read``)
    retains_from: tuple | None = field(default=None, compare=False, hash=False)
    # The receiver's attributes it leaves holding history recorded in the call on top of what
    # they held before it (`out, self.hidden = self.lstm(x, self.hidden)`, a running estimate
    # updated outside no_grad): state carried from one call to the next.
    state: frozenset = EMPTY
    # The receiver's attributes it reads that its constructor computed, once, from the receiver's
    # own parameters and that no other method rebinds (`self.adj = self.mask * base`): a graph
    # built at construction that every call's result reaches (`.adj`).
    constructed: frozenset = EMPTY
    # Where every return is a container filled with tuples of one length (`rows.append((obs,
    # action, log_prob, reward))`): per position, (the parameters whose history reaches it, the
    # body's own trainables that do, whether it is a tensor, whether it is a plain number).
    rows: tuple = field(default=(), compare=False, hash=False)
    # In-place edits inside it of a tensor one of its own ops saved, computed from what it is
    # handed (`v /= v.norm()` on `v` made from parameter 0): edit node -> (those parameters, the
    # Edit its walk recorded). A caller that hands them history breaks its own backward there.
    inner_edits: dict = field(default_factory=dict, compare=False, hash=False)
    # What it copies into a parameter's storage with history from what it is handed
    # (`classifier.head.weight.data = hyper(code)`): parameter index of the model whose storage it
    # rebinds -> {cut node: (the parameters the values were computed from, the Cut its walk
    # recorded)}. The caller's model
    # carries the cut into whatever it computes after the call.
    rebound: dict = field(default_factory=dict, compare=False, hash=False)
    # It leaves autograd's recording off when it returns (`torch.set_grad_enabled(False)` as a
    # statement, never switched back on): that statement. What its caller computes after the
    # call is recorded by nothing.
    switches_off: object = field(default=None, compare=False, hash=False)
    # It switches recording back on itself before its backward (`torch.set_grad_enabled(True)` as a
    # statement, maybe under `if reenable_grad:`): that statement. A caller's `set_grad_enabled(False)`
    # no longer reaches what it computes where that statement runs.
    reenables: object = field(default=None, compare=False, hash=False)


def param_index(root: str, method: bool) -> int | None:
    """The parameter a root of the summary walk stands for (None: a global or the walk's own)."""
    if root.startswith(SYMBOL):
        return int(root[1:])
    if method and (root == "self" or root.startswith("self.")):
        return 0
    return None


class Table:
    """``"f"`` / ``"Class.method"`` / ``"Class"`` -> Summary, for the module's own functions and
    the methods of its classes, each computed only when a call site asks for it (``get``), and
    kept. Each summary walk records into a ModuleFacts of its own, so the facts the checks read
    come from the module's one real walk. The source-order rule holds as if all were computed in order: the walk
    of a function sees only the summaries of the functions before it (``Visible``), so a call of
    one defined later (or of itself) stays unknown, and an answer never depends on which was
    asked first. A name defined twice (a notebook's toy ``Net`` and then the real one) is the
    later definition wherever both came before."""

    def __init__(self, module: ast.Module, lines, imports, classes, functions, globals_env):
        self.module, self.lines, self.imports = module, lines, imports
        self.classes, self.functions = classes, functions
        # what a silent walk of the top level binds (``flow._Globals``: walked when first needed)
        self.globals = globals_env
        # slot: (node, class info, keys) in source order
        self.slots: list = []
        self._instances = None
        self.by_key: dict[str, list[int]] = {}
        self.done: dict[int, Summary | None] = {}
        from gradlint.analysis.scan import local_functions

        for stmt in module.body:
            if type(stmt) in FUNCTIONS:
                self._slot(stmt, None, [stmt.name])
            elif type(stmt) is ast.ClassDef:
                cls = classes.get(stmt.name)
                if cls is None:
                    continue
                called = _calls_through(stmt)
                for inner in stmt.body:
                    # (`self.reshape(x, 2)` of a `@staticmethod`: a function of what it is handed,
                    # which calls no method on an instance, so it comes first)
                    if type(inner) in FUNCTIONS and _static(inner):
                        self._slot(inner, None, [f"{stmt.name}.{inner.name}"])
                for inner in _callees_first([m for m in stmt.body if type(m) in FUNCTIONS and _plain_method(m)]):
                    keys = [f"{stmt.name}.{inner.name}"]
                    if inner.name == called:
                        keys.append(stmt.name)
                    self._slot(inner, cls, keys)
                for inner, keys in _dispatched(stmt, module):
                    self._slot(inner, cls, keys)
        for name, stmt in local_functions(module).items():
            self._slot(stmt, None, [name])  # (`def create_model()` in `main()`)
        # (`class Generator(Base)` whose body only calls `super().__init__()`: calling an instance
        # runs the forward of the nearest base of this file that has one)
        defined = {stmt.name: stmt for stmt in module.body if type(stmt) is ast.ClassDef}
        for stmt in defined.values():
            if stmt.name in self.by_key:
                continue
            base, seen = stmt, set()
            while base is not None and base.name not in seen and base.name not in self.by_key:
                seen.add(base.name)
                names = [b.id for b in base.bases if type(b) is ast.Name and b.id in defined]
                base = defined[names[0]] if len(names) == 1 else None
            if base is not None and base is not stmt and base.name in self.by_key:
                for index in list(self.by_key[base.name]):
                    self.by_key.setdefault(stmt.name, []).append(index)
        self.on_summary = None  # called with each summary computed (project registers its nodes)

    def _slot(self, node, cls, keys) -> None:
        index = len(self.slots)
        self.slots.append((node, cls, keys))
        for key in keys:
            self.by_key.setdefault(key, []).append(index)

    @property
    def instances(self) -> dict:
        """``ModuleFacts.init_instances`` as the file's constructor calls spell them
        (``scan.handed_instances``): a summary walk sees no call site of the file."""
        if self._instances is None:
            from gradlint.analysis.scan import handed_instances

            self._instances = handed_instances(self.module, self.classes, self.imports)
        return self._instances

    def get(self, key: str, limit: int | None = None):
        """The summary ``key`` names once the slots before ``limit`` (all: None) ran."""
        slots = self.by_key.get(key)
        if not slots:
            return None
        for index in reversed(slots):
            if limit is not None and index >= limit:
                continue
            summary = self.summary_at(index)
            if summary is None:
                continue
            return summary
        return None

    def summary_at(self, index: int):
        if index in self.done:
            return self.done[index]
        self.done[index] = None  # (a recursive ask finds nothing, as in source order)
        node, cls, _ = self.slots[index]
        summary = _deep(lambda: _one(self, node, cls, index))
        self.done[index] = summary
        if summary is not None and self.on_summary is not None:
            self.on_summary(summary)
        return summary


class Visible:
    """The summaries a walk in source order sees: those of the slots before ``limit``."""

    __slots__ = ("table", "limit")

    def __init__(self, table: Table, limit: int):
        self.table, self.limit = table, limit

    def get(self, key: str, default=None):
        found = self.table.get(key, self.limit)
        return default if found is None else found


def _deep(run):
    """Run a summary walk asked for from inside another walk with the stack headroom it has when
    summaries are computed up front: nested asks must not hit the recursion limit sooner."""
    import sys

    depth = 0
    frame = sys._getframe(1)
    while frame is not None:
        depth += 1
        frame = frame.f_back
    global _BASE
    old = sys.getrecursionlimit()
    outer = _BASE is None
    if outer:
        _BASE = old
    sys.setrecursionlimit(max(old, _BASE + depth))
    try:
        return run()
    finally:
        sys.setrecursionlimit(old)
        if outer:
            _BASE = None


_BASE = None  # the recursion limit outside any nested summary walk


def _one(table: "Table", node, cls, index: int):
    from gradlint.analysis import flow
    from gradlint.analysis.facts import Function
    from gradlint.analysis.scan import decorated_nograd

    imports = table.imports
    scratch = _scratch(table, index)
    nograd = decorated_nograd(node, imports) or bool(
        cls is not None and cls.nograd_call and node.name in ("forward", "__call__"))
    function = Function(node, node.name, cls.name if cls else None, nograd=nograd)
    walker = flow.Walker(scratch, table.classes, table.functions, table.globals, function, cls=cls)
    try:
        params, positional = walker.summary_body(node)
    except RecursionError:
        return None
    return dataclasses.replace(_read(node, cls, params, positional, scratch, walker),
                               alone=_Alone(table, node, cls, index, function),
                               bound=_Bound(table, node, index, function) if cls is None else None)


def _scratch(table: "Table", index: int):
    """The facts a summary walk of slot ``index`` records into, its own: the module's one real
    walk makes the facts the checks read."""
    from gradlint.analysis.facts import ModuleFacts

    scratch = ModuleFacts(module=table.module, imports=table.imports)
    scratch.lines = table.lines
    scratch.summaries = Visible(table, index)  # later functions read the summaries of earlier ones
    scratch.init_instances = table.instances  # (what `__init__`'s parameters are handed, file-wide)
    return scratch


class _Alone:
    """``Summary.alone``: per parameter, memoized."""

    __slots__ = ("table", "node", "cls", "index", "function", "models", "known")

    def __init__(self, table, node, cls, index, function, models=()):
        # (weakly: the table keeps the summary that keeps this)
        self.table, self.node, self.cls, self.index, self.function = weakref.ref(table), node, cls, index, function
        self.models = models  # (``Summary.bound``'s: the parameters bound to module classes)
        self.known: dict[tuple, frozenset | None] = {}

    def __call__(self, k: int, data: dict) -> frozenset | None:
        """The parameters whose values are all that accompanies parameter ``k``'s, handed wholly
        cut, in the result (`rank + lam * reg(x)`: `lam`'s), or None where the function's own
        trainables do or it does not return it. ``data``: the other parameters the call hands
        values with no history, by position: bound to them in the walk, as the call does."""
        key = (k, frozenset(data))
        if key not in self.known:
            self.known[key] = None  # (a recursive ask finds nothing)
            self.known[key] = _deep(lambda: self._walk(k, data))
        return self.known[key]

    def _walk(self, k: int, data: dict) -> frozenset | None:
        from gradlint.analysis import flow
        from gradlint.analysis.facts import Cut
        from gradlint.analysis.values import Value

        table = self.table()
        if table is None:
            return None
        scratch = _scratch(table, self.index)
        probe = ast.Name(id=f"{SYMBOL}{k}", ctx=ast.Load())
        scratch.cuts[probe] = Cut(probe, ".detach()", probe.id, upstream={f"{SYMBOL}{k}"}, function=self.function)
        walker = flow.Walker(scratch, table.classes, table.functions, table.globals,
                             self.function, cls=self.cls)
        try:
            walker.summary_body(self.node, cut={
                **{j: Value(trainables=frozenset({f"{SYMBOL}{j}"}), module=info) for j, info in self.models},
                **data, k: Value(cuts={probe: EMPTY}, tensor=True, computed=True)})
        except RecursionError:
            return None
        value = None
        for ret in scratch.returns:
            if ret.function.node is self.node:
                value = ret.value if value is None else value.join(ret.value)
        if value is None or probe not in value.cuts or value.post:
            return None
        companions = EMPTY if probe in value.dead else value.cuts[probe]
        ks = {param_index(root, self.cls is not None) for root in companions}
        return None if None in ks else frozenset(ks)


class _Bound:
    """``Summary.bound``: per tuple of (parameter, module class) bound, memoized."""

    __slots__ = ("table", "node", "index", "function", "known")

    def __init__(self, table, node, index, function):
        # (weakly: the table keeps the summary that keeps this)
        self.table, self.node, self.index, self.function = weakref.ref(table), node, index, function
        self.known: dict = {}

    def __call__(self, models: tuple):
        """``models``: ((parameter index, ModuleInfo), …) in index order."""
        key = tuple((k, info.qualname) for k, info in models)
        if key not in self.known:
            self.known[key] = None  # (a recursive ask finds nothing)
            self.known[key] = _deep(lambda: self._walk(models))
        return self.known[key]

    def _walk(self, models):
        from gradlint.analysis import flow
        from gradlint.analysis.values import Value

        table = self.table()
        if table is None:
            return None
        scratch = _scratch(table, self.index)
        walker = flow.Walker(scratch, table.classes, table.functions, table.globals, self.function)
        try:
            params, positional = walker.summary_body(self.node, cut={
                k: Value(trainables=frozenset({f"{SYMBOL}{k}"}), module=info) for k, info in models})
        except RecursionError:
            return None
        # (`grpo_loss(policy, …, kl)` handed the policy: what it adds alone is as dead as unbound)
        return dataclasses.replace(_read(self.node, None, params, positional, scratch, walker),
                                   alone=_Alone(table, self.node, None, self.index, self.function, models))


def _inner_edits(node, scratch, params) -> dict:
    """``Summary.inner_edits``: the edits of saved tensors the walk found in the function itself,
    with the parameters the edited tensor's history comes from. Not where the history comes
    through a parameter the body calls (`model(images)`): the function's own lint takes that one
    for a model, and reports the edit itself."""
    called = None
    out = {}
    for edit in scratch.edits:
        if edit.function.node is not node or not edit.saved:
            continue
        if called is None:
            called = {params.index(n.func.id) for n in ast.walk(node)
                      if type(n) is ast.Call and type(n.func) is ast.Name and n.func.id in params}
        ks = frozenset(k for k in (param_index(r, False) for r in edit.trainables) if k is not None)
        if ks and not ks & called:
            out[edit.node] = (ks, edit)
    return out


def _bound_where_grad_forced(node, root: str, walker) -> bool:
    """The backward's root is a name every assignment of which in the function runs with grad
    mode switched on by the function itself (``with torch.enable_grad(): y = model(im)``, the
    backward after the block): it was recorded whatever the caller's mode, and a backward needs
    no grad mode of its own."""
    from gradlint.analysis.tree import iter_nodes

    bindings = [n for n in iter_nodes(node) if type(n) in (ast.Assign, ast.AnnAssign, ast.AugAssign)
                and any(type(t) is ast.Name and t.id == root
                        for t in (n.targets if type(n) is ast.Assign else [n.target]))]
    return bool(bindings) and all(walker.grad_forced_at(n) for n in bindings)


def _members(walker, name: str) -> frozenset:
    """The receiver's members (`self.discriminator`) whose parameters the optimizer its class
    keeps as ``name`` (`self.opt_d`) updates."""
    covers = walker.cls.optimizers.get(name, EMPTY) if walker.cls is not None else EMPTY
    prefix = f"{walker.cls.name}.self." if walker.cls is not None else None
    return frozenset(c[len(prefix) - 5:] for c in covers
                     if prefix and c.startswith(prefix) and c.count(".") == prefix.count("."))


def _handed_to_init(walker, name: str) -> tuple:
    """(position, name) of each parameter of the receiver's ``__init__`` whose model the optimizer
    its class keeps as ``name`` updates (`self.model = model`, `self.opt = Adam(model.parameters())`):
    a trainer object handed the model it steps, which its callers name as they built it."""
    return optimized_init_parameters(walker.cls.node if walker.cls is not None else None, name)


def optimized_init_parameters(cls, name: str | None = None) -> tuple:
    """``_handed_to_init`` for the class definition ``cls``: of the optimizer kept as ``name``, or
    of any attribute its ``__init__`` binds to one of torch's optimizers (`name` None)."""
    from gradlint.analysis.imports import dotted

    init = next((s for s in cls.body if type(s) is ast.FunctionDef and s.name == "__init__"), None) \
        if cls is not None else None
    if init is None:
        return ()
    params = [a.arg for a in (*init.args.posonlyargs, *init.args.args)][1:]
    kept = {dotted(s.targets[0]): s.value.id for s in ast.walk(init) if type(s) is ast.Assign
            and len(s.targets) == 1 and type(s.value) is ast.Name and s.value.id in params}
    found = set()
    for stmt in ast.walk(init):
        if type(stmt) is ast.Assign and len(stmt.targets) == 1 and (
                dotted(stmt.targets[0]) == name if name is not None else
                type(stmt.value) is ast.Call and ".optim." in f".{dotted(stmt.value.func) or ''}"):
            for call in ast.walk(stmt.value):
                if type(call) is ast.Call and type(call.func) is ast.Attribute \
                        and call.func.attr in ("parameters", "named_parameters"):
                    owner = dotted(call.func.value)
                    param = owner if owner in params else kept.get(owner)
                    if param is not None:
                        found.add((params.index(param), param))
    return tuple(sorted(found))


def _own_steps(function, walker, backprops_param) -> tuple:
    """``Summary.own_steps``: each `self.opt.step()` of an optimizer the receiver's class keeps,
    in a method that backpropagates the object's own state before it, that ``backprops_param``
    does not already hold."""
    from gradlint.analysis.imports import dotted
    from gradlint.analysis.tree import iter_nodes

    if walker.cls is None or not walker.cls.optimizers:
        return ()
    held = {j[0] for entry in backprops_param or () for j in entry[3] if type(j) is tuple}
    # (a backward of the object's own state, `self.last_loss.backward()`: one of a loss the
    # method computes is its own step's, which a caller's backward before the call has no part in)
    backward_at = min((n.lineno for n in iter_nodes(function) if type(n) is ast.Call
                       and type(n.func) is ast.Attribute and n.func.attr == "backward"
                       and (dotted(n.func.value) or "").startswith("self.")), default=None)
    if backward_at is None:
        return ()
    out = []
    for node in iter_nodes(function):
        if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "step" \
                and node.lineno > backward_at:
            name = dotted(node.func.value)
            if name and name.startswith("self.") and name.count(".") == 1 and name not in held \
                    and name in walker.cls.optimizers and name not in {o[0] for o in out}:
                out.append((name, node, _members(walker, name) or _built_over(walker.cls.node, name),
                            _handed_to_init(walker, name)))
    return tuple(out)


def _built_over(cls, name: str) -> frozenset:
    """The receiver's own attributes the optimizer its ``__init__`` binds to ``name`` is built
    over, as written (`SGD([self.prototypes])`, `Adam(self.head.parameters())`)."""
    from gradlint.analysis.imports import dotted

    init = next((s for s in cls.body if type(s) is ast.FunctionDef and s.name == "__init__"), None) \
        if cls is not None else None
    for stmt in ast.walk(init) if init is not None else ():
        if type(stmt) is ast.Assign and len(stmt.targets) == 1 and dotted(stmt.targets[0]) == name \
                and type(stmt.value) is ast.Call and stmt.value.args:
            return frozenset(n for n in map(dotted, ast.walk(stmt.value.args[0]))
                             if n and n.startswith("self.") and n.count(".") == 1)
    return frozenset()


def _step_call(function, name: str):
    """The first ``name.step()`` call in the function."""
    from gradlint.analysis.imports import dotted
    from gradlint.analysis.tree import iter_nodes

    for node in iter_nodes(function):
        if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "step" \
                and dotted(node.func.value) == name:
            return node
    return None


def _callees_first(methods: list) -> list:
    """A class's methods in the order their walks see each other's summaries: a method after
    those it calls on ``self`` (a ``forward`` calling helpers written below it), else in source
    order; methods that call each other keep theirs. A fixed order, so an answer never depends on
    which summary was asked for first."""
    names = {m.name for m in methods}
    calls = {}
    for m in methods:
        calls[id(m)] = {n.func.attr for n in ast.walk(m) if type(n) is ast.Call and type(n.func) is ast.Attribute
                        and type(n.func.value) is ast.Name and n.func.value.id == "self" and n.func.attr in names
                        and n.func.attr != m.name}
    by_name = {}
    for m in methods:
        by_name.setdefault(m.name, []).append(m)
    order, placed = [], set()
    for m in methods:
        _place(m, calls, by_name, methods, order, placed, set())
    return order


def _place(m, calls, by_name, methods, order, placed, visiting) -> None:
    """``_callees_first``'s depth-first placing (a function of the module: a nested one calling
    itself would hold its own cell, and the class's trees with it)."""
    if id(m) in placed or id(m) in visiting:
        return  # (a cycle: its members stay where source order puts them)
    visiting.add(id(m))
    for name in sorted(calls[id(m)], key=lambda n: methods.index(by_name[n][0])):
        for callee in by_name[name]:
            _place(callee, calls, by_name, methods, order, placed, visiting)
    visiting.discard(id(m))
    placed.add(id(m))
    order.append(m)


def _dispatched(stmt: ast.ClassDef, module: ast.Module) -> list:
    """The methods a class inherits from a base of this file that call one it overrides (a
    `__call__` of the base running `self.loss(…)`, which the subclass defines): (the base's method,
    keys), to be walked as the subclass's, where `self.loss` is its own. Nearest base first."""
    defined = {s.name: s for s in module.body if type(s) is ast.ClassDef}
    own = {m.name for m in stmt.body if type(m) in FUNCTIONS}
    out, seen, base = [], set(own), stmt
    called = None if own & {"__call__", "forward"} else True
    while True:
        names = [b.id for b in base.bases if type(b) is ast.Name and b.id in defined and b.id != base.name]
        if len(names) != 1 or names[0] in {stmt.name}:
            return out
        base = defined[names[0]]
        through = _calls_through(base) if called else None
        for method in base.body:
            if type(method) not in FUNCTIONS or not _plain_method(method) or method.name in seen \
                    or method.name == "__init__":
                continue
            seen.add(method.name)
            calls = {n.func.attr for n in ast.walk(method) if type(n) is ast.Call and type(n.func) is ast.Attribute
                     and type(n.func.value) is ast.Name and n.func.value.id == "self"}
            if calls & own:
                keys = [f"{stmt.name}.{method.name}"]
                if method.name == through:
                    keys.append(stmt.name)
                out.append((method, keys))


def _calls_through(cls: ast.ClassDef) -> str:
    """The method calling an instance runs: its own ``__call__``, else ``forward``."""
    own = any(type(s) in FUNCTIONS and s.name == "__call__" and _plain_method(s) for s in cls.body)
    return "__call__" if own else "forward"


def _static(node) -> bool:
    return any((deco.id if type(deco) is ast.Name else deco.attr if type(deco) is ast.Attribute else None)
               == "staticmethod" for deco in node.decorator_list)


def _plain_method(node) -> bool:
    """A method called on an instance with it as the first argument (a `@property` is, read)."""
    for deco in node.decorator_list:
        name = deco.id if type(deco) is ast.Name else deco.attr if type(deco) is ast.Attribute else None
        if name in ("staticmethod", "classmethod"):
            return False
    return True


def _read(node, cls, params, positional, scratch, walker) -> Summary:
    method = cls is not None
    returns = [r for r in scratch.returns if r.function.node is node]
    generator = any(type(n) in (ast.Yield, ast.YieldFrom) for n in _own_nodes(node))
    value = None
    for ret in returns:
        value = ret.value if value is None else value.join(ret.value)
    passes: set[int] = set()
    own_roots: set[str] = set()
    cuts: dict = {}
    cut_facts: dict = {}
    beside: dict = {}
    saved = None
    nograd = False
    number = False
    tensor = False
    rebuilt = {}
    if value is not None and value.rebuilt:
        # (a rebuild in a function this one calls: what this one handed it, `walker.rebuilt_from`)
        sources = {r.node: r.source.trainables for r in scratch.rebuilds}
        pulled_copies = {r.node for r in scratch.rebuilds if r.function.node is node and r.source.pulled
                         and not r.source.attached and not r.fresh_copy}
        for rebuild in value.rebuilt:
            copied = sources.get(rebuild, walker.rebuilt_from.get(rebuild, EMPTY))
            ks = frozenset(k for k in (param_index(r, method) for r in copied) if k is not None)
            if ks:
                rebuilt[rebuild] = ks
            elif rebuild in pulled_copies:
                # (`torch.from_numpy(acc)` of NumPy values pulled out of what its own ops computed:
                # a copy whatever the callers hand it, ks empty)
                rebuilt[rebuild] = EMPTY
    conditional = frozenset()
    if value is not None:
        # (a loss module's or a loss function's term dead where its callers hand its companions
        # no history, `SoftDice.forward`'s `probs.data` beside `target`, `l2_penalty`'s
        # `param.data` scaled by `regularization`: only where those companions are none of what
        # the cut itself cuts)
        conditional = frozenset(e for e in value.dead if type(e) is tuple and scratch.cuts.get(e[0]) is not None
                                and e[1].isdisjoint(param_index(r, method) for r in scratch.cuts[e[0]].upstream))
    if value is not None:
        passes, own_roots = _split_roots(value.trainables | value.post, method)
        for cut_node in value.cuts:
            fact = scratch.cuts.get(cut_node)
            # (what it cut stays attached beside it in the result: nothing is starved. Of what it
            # is handed, in a returned tuple, beside it in each element that holds it: a loss
            # function's `return loss, loss_c`, `loss_c` built from the cut alone, is a dead term
            # of its own; a model's own members cut beside their attached output, `return
            # z.detach(), p`, are the stop-gradient target of a SimSiam-style loss)
            handed = all(param_index(r, method) is not None and not (method and not r.startswith(SYMBOL))
                         for r in fact.upstream) if fact is not None else False
            # (a member cut alone in an element of a returned tuple, `return x_hat, mu.detach()`,
            # is an output of its own: the caller's use says whether it is a target, a dead term
            # or a logged value)
            tupled = bool(returns) and all(ret.parts for ret in returns)
            members = {u for u in fact.upstream if u.startswith("self.")} if fact is not None else set()
            if method and cls.may_be_module and fact is not None and fact.of_leaf and fact.upstream \
                    and all(r.startswith(SYMBOL) for r in fact.upstream) \
                    and not _trains_own_layers_after(value, cls):
                # (a module's forward detaching an input it is handed with nothing of its own applied
                # after: a loss module's target, a metric's operand, judged where its caller
                # combines the terms; a critic's layers on the cut actions are no such)
                continue
            if members and members <= _pretrained(walker):
                continue  # (a pretrained member its class runs in eval, a vocoder's: nothing starves)
            if fact is None or (fact.upstream and (
                    all(fact.upstream <= part.cuts[cut_node] for part in _parts(returns) if cut_node in part.cuts)
                    if handed or tupled else fact.upstream <= value.cuts[cut_node])
                    and not any(e[0] is cut_node for e in conditional)):
                # (kept where it is a term dead at the calls that hand its companions no history)
                continue
            ks = frozenset(k for k in (param_index(r, method) for r in fact.upstream) if k is not None)
            cuts[cut_node] = ks
            cut_facts[cut_node] = fact
            beside[cut_node] = frozenset(
                k if k is not None and not (k == 0 and method and not root.startswith(SYMBOL)) else root
                for root, k in ((r, param_index(r, method)) for r in _beside(returns, cut_node)))
        if value.saved:
            saved = min(value.saved, key=lambda s: (getattr(s.node, "lineno", 0), getattr(s.node, "col_offset", 0), s.op))
        nograd = bool(value.nograd) and not value.attached
        number = (bool(value.pulled) or value.const) and not value.tensor and not value.attached and not value.cuts
        tensor = value.tensor
        pulled = frozenset(n for n in value.pulled if any(
            param_index(r, method) is not None for r in scratch.pulled_from.get(n, ())))
        pulled_own = frozenset(n for n in pulled if method and any(
            param_index(r, method) == 0 for r in scratch.pulled_from.get(n, ())))
        # (a NumPy function's pull also through a cut on the way, `ang = ang.detach()` before
        # `np.asarray(limits)`: the handed tensor's history is what the pull ends)
        pulled_params = {n: frozenset(k for k in (param_index(r, method) for r in (
            scratch.pulled_from if _numpy_call(n, walker.imports) else scratch.pulled_history).get(n, ()))
                                      if k is not None and not (method and k == 0)) for n in pulled}
    backprops_param = []
    seen = set()
    for site in scratch.backwards:
        root = site.root if site.root in params else _scaled_root(site.node, params) \
            or _drawn_root(site.node, node, params)
        derived = root is None
        root = root or _computed_from_one(site.value, params)
        if site.function.node is node and root in params and root not in walker.born \
                and site.accumulates and not (method and params.index(root) == 0) and site.node not in seen:
            seen.add(site.node)
            # (a parameter's index, or the receiver's own optimizer as written with its `step()`
            # call, `("self.opt_d", node)`)
            stepped = tuple(params.index(n) if n in params else (n, _step_call(node, n), _members(walker, n),
                                                                 _handed_to_init(walker, n))
                            for n in sorted(site.stepped_names)
                            if n in params or (method and n.startswith("self.") and n.count(".") == 1))
            backprops_param.append((params.index(root), site.retain_graph, site.create_graph, stepped, site.node, derived))
    backprops_param = tuple(backprops_param) or None
    own_steps = _own_steps(node, walker, backprops_param) if method else ()
    guarded = _guarded_switches(node, params)
    switched_params = {
        params.index(site.name): site.node for site in scratch.switches
        if site.function.node is node and site.name in params and (site.name not in walker.born or site.node in guarded)
        and (not site.intended_leaf or site.node in guarded) and not (method and params.index(site.name) == 0)}
    switched_returns = tuple(
        (site.node, site.name, site.value.rebuilt) for site in scratch.switches
        if site.function.node is node and site.name and site.name not in params and not site.intended_leaf
        and site.value.rebuilt and _returns_from(node, site.name))
    trains_params = frozenset(
        k for site in scratch.backwards if site.function.node is node and site.accumulates
        for k in (param_index(r, False) for r in site.value.trainables)
        if k is not None and not (method and k == 0))
    # backward(retain_graph=True) of a root it computes from what it is handed (a rollout step's
    # `loss = f(model(x)); loss.backward(retain_graph=True)`): the parameters that root descends
    # from, so that a caller's loop feeding back its own state there is read as carrying it
    retains_from = tuple(
        (site.node, frozenset(k for k in map(lambda r: param_index(r, False), site.value.trainables | site.value.inputs)
                              if k is not None and not (method and k == 0)))
        for site in scratch.backwards
        # (a backward() that accumulates: `autograd.grad` of the fast weights a meta-learner's
        # inner loop carries stops at them, whatever their history)
        if site.function.node is node and site.retain_graph and not site.create_graph and site.loop is None
        and site.accumulates and site.root not in params and _scaled_root(site.node, params) is None) or None
    backward = None
    for site in scratch.backwards:
        if site.function.node is not node or walker.grad_forced_at(site.node) \
                or _bound_where_grad_forced(node, site.root, walker):
            continue
        # Any op under the caller's no_grad drops history: a root computed in here (even from
        # what it is given) has none then; a parameter handed straight to backward() keeps its own.
        own = {r for r in site.value.trainables | site.value.post if param_index(r, False) is None}
        if own or site.value.computed:
            backward = site.node
            break
    if backward is None:
        # (`trial.evaluate()` calling a probe's fit that backpropagates: it does too, in the
        # caller's grad mode)
        backward = next((call for call, function, forced in scratch.backprop_calls
                         if function.node is node and not forced and not walker.grad_forced_at(call)), None)
    # A backward it makes under `torch.enable_grad()` too: that switch does not lift a caller's
    # inference_mode, under which what it differentiates has no history either.
    inference_backward = backward or next(
        (site.node for site in scratch.backwards if site.function.node is node and site.value.computed), None) or next(
        (call for call, function, _ in scratch.backprop_calls if function.node is node), None)
    # (a parameter never rebound in the body is the tensor the caller handed)
    saves = frozenset(params.index(name) for name, _ in walker.save_log
                      if name in params and name not in walker.born and not (method and params.index(name) == 0))
    save_needs: dict = {}
    always = set()  # (one save made whatever the others are makes the parameter saved)
    for name, save in walker.save_log:
        if name in params and params.index(name) in saves:
            k = params.index(name)
            if save.needs:
                save_needs[k] = save_needs.get(k, EMPTY) | save.needs
            else:
                always.add(k)
    save_needs = {k: needs for k, needs in save_needs.items() if k not in always}
    own_saved: dict = {}
    if method:
        for name, save in walker.save_log:
            # (a member's own, `self.fc_h.weight_epsilon` saved by the layer's forward, too)
            if name.startswith(params[0] + ".") and not save.needs \
                    and name.split(".")[0] + "." + name.split(".")[1] not in walker.born and name not in walker.born:
                own_saved[name[len(params[0]):]] = own_saved.get(name[len(params[0]):], EMPTY) | {save}
    edits = set()
    param_edits = {}
    own_edits = {}
    for edit in scratch.edits:
        if edit.function.node is node and edit.name not in params and edit.base in params \
                and not (method and params.index(edit.base) == 0):
            # (a view of what it is handed, edited: `scale = params.narrow(1, h, h)`, `scale.mul_(…)`)
            k = params.index(edit.base)
            edits.add(k)
            param_edits[edit.node] = (k, edit)
        elif edit.function.node is node and edit.name in params:
            k = params.index(edit.name)
            edits.add(k)
            if edit.as_bound and not (method and k == 0):
                param_edits[edit.node] = (k, edit)
        elif edit.function.node is node and method and edit.as_bound and edit.name.startswith(params[0] + ".") \
                and edit.name.count(".") == 1:
            own_edits[edit.node] = (edit.name[len(params[0]):], edit)
    if method and params:
        # (a member's edits of its own tensors, `self.fc_h.reset_noise()`, are the receiver's)
        for edit_node, name, edit in walker.member_edits:
            if name.startswith(params[0] + "."):
                own_edits.setdefault(edit_node, (name[len(params[0]):], edit))
        if cls is not None:
            for edit_node, attr, edit in _children_edits(node, cls, params[0], walker):
                own_edits.setdefault(edit_node, (attr, edit))
    stale_return = ()
    if method and params and value is not None and value.stale:
        edited = {entry[0]: entry[1] for entry in walker.pending_steps}
        stale_return = tuple(sorted(
            {(step, edited[step]) for step, _ in value.stale if step in edited
             and (edited[step] or "").startswith(params[0] + ".") and edited[step].count(".") == 1},
            key=lambda e: (e[0].lineno, e[0].col_offset)))
    return Summary(
        node=node, params=tuple(params), positional=positional, method=method,
        stale_return=stale_return,
        star=len(params) - 1 if node.args.vararg is not None else -1,
        passes=frozenset(passes), trainables=frozenset(own_roots), cuts=cuts,
        cut_facts=cut_facts, cut_sites={c: scratch.call_sites[c] for c in cuts if c in scratch.call_sites}, beside=beside, nograd=nograd, saved_output=saved, saved_parts=_saved_parts(returns),
        backprops=backward is not None, inference_backward=inference_backward,
        backward=backward, edits=frozenset(edits), param_edits=param_edits, own_edits=own_edits, own_saved=own_saved, returns_number=number, tensor=tensor,
        lost=bool(value is not None and value.lost and not value.attached),
        lost_beside=bool(value is not None and value.lost and value.attached and value.trainables
                         and all(r.startswith("%") for r in value.trainables)),
        packed=bool(value is not None and value.packed), generator=generator, rebuilt=rebuilt, pulled=pulled if value is not None else frozenset(),
        pulled_own=pulled_own if value is not None else frozenset(),
        pulled_params={n: ks for n, ks in pulled_params.items() if ks} if value is not None else {},
        pulled_parts=_pulled_parts(returns, pulled) if value is not None and pulled else (),
        pulled_fields=_pulled_fields(returns, pulled) if value is not None and pulled else None,
        trained_fields=_trained_fields(returns, method, cuts),
        numbers_in_ops=frozenset(params.index(n) for n in getattr(walker, "number_operands", ())
                                 if n in params and n not in walker.born and params.index(n) in passes),
        mixes=frozenset(int(r[1:]) for r in getattr(walker, "mixed_roots", ())),
        views=frozenset(params.index(r.value.alias) for r in returns
                        if r.value.alias in params and not (method and r.value.alias == params[0])),
        const_parts=_const_parts(returns), container_parts=_container_parts(returns),
        saves=saves, save_needs=save_needs, module=_built_module(returns, walker), built_parts=_built_parts(returns, scratch, walker),
        trained_parts=_trained_parts(returns, method), post_parts=_post_parts(returns, method), backprops_param=backprops_param, retains_from=retains_from,
        trains_params=trains_params, switched_params=switched_params, switched_returns=switched_returns,
        own_steps=own_steps,
        cut_parts=_cut_parts(returns, cuts),
        dead=frozenset(c for c in value.dead if c in cuts and _dead_in_every_part(c, returns)) | conditional
        if value is not None else EMPTY,
        part_shape=returns[0].shape if returns and len({r.shape for r in returns}) == 1
        and len(returns[0].shape) != len(returns[0].parts) else (),
        switches_off=walker.nograd if type(walker.nograd) is ast.Expr and not walker.function.nograd else None,
        state=walker.carried_state(), rows=_rows(returns, method), inner_edits=_inner_edits(node, scratch, params),
        constructed=_constructed(node, walker, params) if method else EMPTY,
        rebound=_rebound(node, scratch, params, method),
        reenables=_reenables(node, backward, walker.imports) if backward is not None else None,
    )


def _numpy_call(node, imports) -> bool:
    """``node`` is a call of a NumPy function (`np.asarray(limits)`), not a tensor's method."""
    return type(node) is ast.Call and (imports.qualname(node.func) or "").startswith("numpy.")


def _children_edits(function, cls, me: str, walker) -> list:
    """(edit, `.member.attr`, edit) for a loop over the receiver's children calling a method on
    each (`for name, module in self.named_children(): module.reset_noise()`): the edits that
    method of each member's class makes of the member's own tensors."""
    out = []
    for loop in ast.walk(function):
        if type(loop) is not ast.For or type(loop.iter) is not ast.Call or type(loop.iter.func) is not ast.Attribute \
                or loop.iter.func.attr not in ("children", "named_children", "modules", "named_modules") \
                or dotted(loop.iter.func.value) != me:
            continue
        target = loop.target.elts[-1] if type(loop.target) is ast.Tuple and loop.target.elts else loop.target
        if type(target) is not ast.Name:
            continue
        called = {n.func.attr for n in ast.walk(loop) if type(n) is ast.Call and type(n.func) is ast.Attribute
                  and type(n.func.value) is ast.Name and n.func.value.id == target.id}
        for attr, info in cls.attrs.items():
            if info is None or not attr.startswith("self."):
                continue
            for method in called:
                summary = walker.facts.callee(f"{info.qualname}.{method}")
                if summary is not None and summary.method:
                    out += [(edit_node, "." + attr[len("self."):] + member, edit)
                            for edit_node, (member, edit) in summary.own_edits.items()]
    return out


def _reenables(node, backward, imports):
    """The first `torch.set_grad_enabled(True)` statement of the function before ``backward``."""
    from gradlint.analysis.scan import SET_GRAD_ENABLED, literal_true
    from gradlint.analysis.tree import iter_nodes

    return next((n for n in iter_nodes(node, into_functions=False)
                 if type(n) is ast.Expr and type(n.value) is ast.Call and n.lineno < backward.lineno
                 and imports.qualname(n.value.func) in SET_GRAD_ENABLED and n.value.args
                 and literal_true(n.value.args[0])), None)


def _rebound(node, scratch, params, method: bool) -> dict:
    """``Summary.rebound``: the storage rebinds the walk found in the function itself of a model
    it is handed, from values computed with what other parameters hold."""
    from gradlint.analysis.facts import STORAGE_REBOUND

    out: dict = {}
    for cut_node, cut in scratch.cuts.items():
        if cut.kind != STORAGE_REBOUND or cut.function is None or cut.function.node is not node or not cut.into:
            continue
        root = cut.into.split(".")[0]
        if root not in params or (method and params.index(root) == 0):
            continue
        ks = frozenset(k for k in (param_index(r, False) for r in cut.upstream) if k is not None)
        if ks:
            out.setdefault(params.index(root), {})[cut_node] = (ks, cut)
    return out


def _constructed(node, walker, params) -> frozenset:
    """``Summary.constructed``: of the receiver's attributes the method reads, those its class's
    ``__init__`` computed from the receiver's own parameters (what the walk learnt of it), which
    no other method rebinds and no module holds."""
    from gradlint.analysis.flow import PARAMETER
    from gradlint.analysis.tree import iter_nodes

    cls = walker.cls
    if cls is None or cls.node is None or not cls.init_walked or not params:
        return EMPTY  # (`def build():` in a class body: no receiver)
    me = params[0]
    read = {n.attr for n in iter_nodes(node) if type(n) is ast.Attribute and type(n.ctx) is ast.Load
            and type(n.value) is ast.Name and n.value.id == me}
    rebound = {t.attr for method in cls.node.body if type(method) in (ast.FunctionDef, ast.AsyncFunctionDef)
               and method.name != "__init__" for n in ast.walk(method) if type(n) in (ast.Assign, ast.AugAssign)
               for target in (n.targets if type(n) is ast.Assign else [n.target]) for t in ast.walk(target)
               if type(t) is ast.Attribute and type(t.value) is ast.Name and t.value.id == "self"}
    out = set()
    for attr in read - rebound:
        seen = cls.assigned.get(f"self.{attr}")
        if seen is not None and seen.computed and seen.trainables and not (
                seen.cuts or seen.nograd or seen.container or seen.module is not None) \
                and cls.attrs.get(f"self.{attr}") is None \
                and all(t != f"self.{attr}" and getattr(cls.attrs.get(t), "qualname", None) in PARAMETER
                        for t in seen.trainables):
            # (of the class's own parameters only: one a submodule computed, `self.embeddings(ids)`,
            # saved that submodule's weights, and a step between backwards breaks it, GL005's)
            out.add(f".{attr}")
    return frozenset(out)


def _trains_own_layers_after(value, cls) -> bool:
    """The class applies members of its own that it leaves trainable to what the result holds
    downstream of a cut (a critic's layers on the actions it detached)."""
    from gradlint.analysis.imports import dotted
    from gradlint.analysis.scan import frozen_owners

    init = cls.init
    frozen = frozen_owners(init) if init is not None else set()
    # (not a network the constructor is handed, `self.features = features`: the caller's, frozen
    # or not there)
    params = {a.arg for a in init.args.args} if init is not None else set()
    frozen |= {dotted(t) for n in (ast.walk(init) if init is not None else ()) if type(n) is ast.Assign
               and type(n.value) is ast.Name and n.value.id in params for t in n.targets if dotted(t)}
    return "self" not in frozen and any(
        r.startswith("self.") and not any(r == f or r.startswith(f + ".") for f in frozen) for r in value.post)


def _pretrained(walker) -> set:
    """The members the classes of the walked file load from a checkpoint and run in eval
    (``flow.pretrained_for_inference``), as its own lint freezes them."""
    from gradlint.analysis.flow import pretrained_for_inference
    from gradlint.analysis.tree import once

    module = walker.facts.module
    return once("pretrained", module, lambda _: pretrained_for_inference(walker.classes))


def _rows(returns, method: bool) -> tuple:
    """``Summary.rows``: () unless every return holds rows of one length."""
    rows = [ret.value.rows for ret in returns]
    if not rows or any(r is None for r in rows) or len({len(r) for r in rows}) != 1:
        return ()
    out = []
    for k in range(len(rows[0])):
        parts = [r[k] for r in rows]
        params, own = _split_roots(frozenset().union(*(v.trainables | v.post for v in parts)), method)
        out.append((frozenset(params), frozenset(own), all(v.tensor for v in parts), all(v.plain for v in parts)))
    return tuple(out)


def _parts(returns) -> list:
    """The values the function returns, each element of a returned tuple on its own."""
    return [value for ret in returns for value in ([v for _, v in ret.parts] if ret.parts else [ret.value])]


def _beside(returns, cut_node) -> frozenset:
    """What stays attached beside a cut in what the function returns, and what is applied after
    it: in a returned tuple, each element is an output of its own (``return total, matching`` with ``matching`` a dead term of
    ``total``: what ``total``'s other term carries is not beside it)."""
    out = set()
    for ret in returns:
        values = [value for _, value in ret.parts] if ret.parts else [ret.value]
        for value in values:
            if cut_node in value.cuts:
                # (and the models applied after it: `critic(states, actions.detach())` trains the
                # critic through the cut values)
                out |= value.cuts[cut_node] | value.post
    return frozenset(out)


def _built_module(returns, walker):
    """The module every return builds with parameters (``return nn.Sequential(…)``, ``return
    Net(…)``), else None."""
    from gradlint.analysis.scan import module_info

    found = None
    for ret in returns:
        expr = ret.node.value
        module = module_info(expr, walker.imports, walker.classes) if expr is not None else None
        if module is None and type(expr) is ast.Name:
            module = ret.value.module  # (`m = Net(); m.load_state_dict(…); return m`)
        if module is None or not module.parameters:
            return None
        found = found or module
    return found


def _trained_parts(returns, method: bool) -> tuple:
    """Per element of the returned tuple: (parameter indices, own trainables) reaching it
    attached (``trained_parts``); () unless every return is a tuple of one length."""
    if not _same_tuples(returns):
        return ()
    out = []
    for k in range(len(returns[0].parts)):
        roots = frozenset().union(*(ret.parts[k][1].trainables | ret.parts[k][1].post for ret in returns))
        params, own = _split_roots(roots, method)
        out.append((frozenset(params), frozenset(own)))
    return tuple(out)


def _post_parts(returns, method: bool) -> tuple:
    """``Summary.post_parts``: () unless every return is a tuple of one length."""
    if not _same_tuples(returns):
        return ()
    out = []
    for k in range(len(returns[0].parts)):
        post = frozenset().union(*(ret.parts[k][1].post for ret in returns))
        params, own = _split_roots(post, method)
        out.append((frozenset(params), frozenset(own)))
    return tuple(out)


def _cut_parts(returns, cuts: dict) -> tuple:
    """``Summary.cut_parts``: () unless every return is a tuple of one length."""
    if not cuts or not _same_tuples(returns):
        return ()
    return tuple(frozenset(c for ret in returns for c in ret.parts[k][1].cuts if c in cuts)
                 for k in range(len(returns[0].parts)))


def _const_parts(returns) -> tuple:
    """``Summary.const_parts``: () unless every return is a tuple of one length."""
    if not _same_tuples(returns):
        return ()
    return tuple(all(ret.parts[k][1].const for ret in returns) for k in range(len(returns[0].parts)))


def _container_parts(returns) -> tuple:
    """``Summary.container_parts``: () unless every return is a tuple of one length."""
    if not _same_tuples(returns):
        return ()
    parts = tuple(all(ret.parts[k][1].container and not ret.parts[k][1].tensor for ret in returns)
                  for k in range(len(returns[0].parts)))
    return parts if any(parts) else ()


def _pulled_parts(returns, pulled: frozenset) -> tuple:
    """``Summary.pulled_parts``: () unless every return is a tuple of one length."""
    if not _same_tuples(returns):
        return ()
    return tuple(frozenset(n for ret in returns for n in ret.parts[k][1].pulled if n in pulled)
                 for k in range(len(returns[0].parts)))


def _field_keys(returns) -> tuple | None:
    """The keys of the dict display every return is, in order; None unless all are alike."""
    # (a key whose list was left empty, filled where the walk did not see, says nothing)
    shapes = {tuple(k for k, _ in r.value.fields) if r.value.fields is not None
              and all(v is not NOTHING_YET for _, v in r.value.fields) else None for r in returns}
    if not returns or len(shapes) != 1 or None in shapes:
        return None
    return next(iter(shapes))


def _pulled_fields(returns, pulled: frozenset) -> tuple | None:
    """``Summary.pulled_fields``: None unless every return is a dict display of the same keys."""
    keys = _field_keys(returns)
    if keys is None:
        return None
    return tuple((k, frozenset(n for r in returns for n in r.value.field(k).pulled if n in pulled))
                 for k in keys)


def _trained_fields(returns, method: bool, cuts: dict) -> tuple | None:
    """``Summary.trained_fields``: None unless every return is a dict display of the same keys."""
    keys = _field_keys(returns)
    if keys is None:
        return None
    out = []
    for k in keys:
        held = [r.value.field(k) for r in returns]
        params, own = _split_roots(frozenset().union(*(v.trainables | v.post for v in held)), method)
        out.append((k, (frozenset(params), frozenset(own), frozenset(c for v in held for c in v.cuts if c in cuts))))
    return tuple(out)


def _same_tuples(returns) -> bool:
    """Every return is a tuple of one length (what the ``*_parts`` of a summary need)."""
    return bool(returns) and all(r.parts for r in returns) and len({len(r.parts) for r in returns}) == 1


def _split_roots(roots, method: bool) -> tuple[set, set]:
    """(the parameters whose history the roots stand for, the body's own trainables among
    them: a global, or for a method the receiver's members by their names)."""
    params, own = set(), set()
    for root in roots:
        index = param_index(root, method)
        if index is not None:
            params.add(index)
        if index is None or (index == 0 and method and not root.startswith(SYMBOL)):
            own.add(root)
    return params, own


def _built_parts(returns, scratch, walker=None) -> tuple:
    """Per element of the returned tuple, the model or optimizer the function builds there
    (``built_parts``); () unless every return is a tuple of one length and some element is one."""
    from gradlint.analysis.scan import is_optimizer_class

    if len(returns) != 1 or not returns[0].parts:
        return ()
    parts = returns[0].parts
    names = [expr.id if type(expr) is ast.Name else None for expr, _ in parts]
    out = []
    for expr, value in parts:
        if value.module is None and type(expr) is ast.Call and walker is not None:
            # (`return nn.Sequential(…), Head()`: what each constructor call builds)
            from gradlint.analysis.scan import module_info

            value = dataclasses.replace(value, module=module_info(expr, scratch.imports, walker.classes))
        if value.module is not None and value.module.parameters and (
                (not value.computed and names[len(out)] and value.trainables == frozenset({names[len(out)]}))
                # (`return ScoreModel(…), ConfidenceHead()`: built in the tuple itself)
                or (type(expr) is ast.Call and not value.trainables)):
            out.append(("module", value.module))
        elif value.optimizer and names[len(out)] in scratch.optimizers:
            covers = scratch.optimizers[names[len(out)]] or frozenset()
            out.append(("optimizer", frozenset(i for i, name in enumerate(names) if name in covers)))
        elif type(expr) is ast.Call and is_optimizer_class(scratch.imports.qualname(expr.func)):
            # `return G, D, Adam(G.parameters()), Adam(D.parameters())`: built in the tuple itself
            given = {(_root(n.func.value) or "") for n in ast.walk(expr) if type(n) is ast.Call
                     and type(n.func) is ast.Attribute and n.func.attr in ("parameters", "named_parameters")}
            covered = frozenset(i for i, name in enumerate(names) if name in given)
            out.append(("optimizer", covered) if covered else None)  # (of models not returned beside it: unknown)
        else:
            out.append(None)
    return tuple(out) if any(part is not None for part in out) else ()


def _root(expr) -> str | None:
    while type(expr) is ast.Attribute:
        expr = expr.value
    return expr.id if type(expr) is ast.Name else None


def _saved_parts(returns) -> tuple:
    """Per element of the returned tuple, the first Save of that element's tensor (in source
    order), or None; () unless every return is a tuple of one length and some element is saved."""
    if not _same_tuples(returns):
        return ()
    out = []
    for k in range(len(returns[0].parts)):
        saves = [save for r in returns for save in r.parts[k][1].saved]
        out.append(min(saves, key=lambda s: (getattr(s.node, "lineno", 0), getattr(s.node, "col_offset", 0), s.op))
                   if saves else None)
    return tuple(out) if any(save is not None for save in out) else ()


def _own_nodes(node):
    """The nodes of a function's body, not those of functions or classes nested in it (a
    statement of the body is entered even where it is a nested def: its decorators, defaults
    and body, though not the scopes nested in those). Read from the memoized walks."""
    from gradlint.analysis.tree import iter_nodes

    for stmt in node.body:
        yield from iter_nodes(stmt, into_functions=False)


def _guarded_switches(fn, params) -> set:
    """The switches of a parameter made only where it has no history (`if not term.requires_grad:
    term = term.detach().requires_grad_(True)`): whatever the caller hands without history is
    made a new leaf there, the telltale of a lost history silenced."""
    from gradlint.analysis.scan import without_history_test

    found = set()
    for stmt in ast.walk(fn):
        name = without_history_test(stmt.test) if type(stmt) is ast.If else None
        if name not in params:
            continue
        for inner in stmt.body:
            for node in ast.walk(inner):
                if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "requires_grad_":
                    base = node.func.value
                    while type(base) is ast.Call and type(base.func) is ast.Attribute and base.func.attr in ("detach", "clone"):
                        base = base.func.value
                    if type(base) is ast.Name and base.id == name:
                        found.add(node)
                elif type(node) is ast.Assign and any(type(t) is ast.Attribute and t.attr == "requires_grad"
                                                      and type(t.value) is ast.Name and t.value.id == name
                                                      for t in node.targets):
                    found.add(node)
    return found


def _dead_in_every_part(cut, returns) -> bool:
    """A cut dead in one element of a returned tuple (a critic's `returns.detach()` target) and
    at work in another (the actor's loss through the same imagined states, models applied after
    it) is dead only there: a caller adding the elements up trains through it."""
    for ret in returns:
        for part in ret.value.parts or ():
            if part is not None and cut in part.cuts and (cut not in part.dead or part.post):
                return False  # (models applied after the cut train through that element)
    return True


def _drawn_root(call, function, params):
    """The parameter a backward's root is drawn from by a loop of the function, `for term in
    terms: term.backward()`, `for k, (term, w) in enumerate(zip(terms, weights)): (w * term)
    .backward(…)`: each loss of the list the caller hands, backpropagated; None elsewhere."""
    from gradlint.analysis.tree import iter_nodes

    root = call.func.value if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) else None
    names, todo = set(), [root]
    while todo:  # (the loss itself, or weighed by a number or another loop variable)
        expr = todo.pop()
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Mult, ast.Div)):
            todo += [expr.left, expr.right]
        elif isinstance(expr, ast.Name):
            names.add(expr.id)
        elif not isinstance(expr, ast.Constant):
            return None
    for loop in iter_nodes(function, into_functions=False):
        if type(loop) is not ast.For or not any(n is call for n in ast.walk(loop)):
            continue
        source = loop.iter
        while isinstance(source, ast.Call) and isinstance(source.func, ast.Name) \
                and source.func.id in ("enumerate", "zip", "reversed") and source.args:
            source = source.args[0]
        bound = {t.id for t in ast.walk(loop.target) if isinstance(t, ast.Name)}
        if names & bound and isinstance(source, ast.Name) and source.id in params:
            return source.id
    return None


def _computed_from_one(value, params):
    """The parameter whose history alone a backward's root carries (`g_loss = bce(score,
    ones)` of the `score` the caller hands, `(-score).mean()`): what the backward reaches is what
    the caller's value reaches; None where the root carries anything else (a member's, another
    parameter's, a cut's)."""
    if len(value.trainables) != 1 or value.post or value.cuts or value.inputs:
        return None
    (only,) = value.trainables
    k = only[1:] if only.startswith("%") else ""
    return params[int(k)] if k.isdigit() and int(k) < len(params) else None


def _scaled_root(call, params):
    """The parameter a backward's root scales, `(loss * scaler).backward()`, `(loss /
    accum).backward()`: the loss the caller hands, backpropagated (a number or another
    parameter only weighs it); None elsewhere."""
    root = call.func.value if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) else None
    if not isinstance(root, ast.BinOp) or not isinstance(root.op, (ast.Mult, ast.Div)):
        return None
    left, right = root.left, root.right
    if isinstance(left, ast.Name) and left.id in params and (isinstance(right, ast.Constant) or (
            isinstance(right, ast.Name) and right.id in params)):
        return left.id
    if isinstance(root.op, ast.Mult) and isinstance(right, ast.Name) and right.id in params \
            and isinstance(left, ast.Constant):
        return right.id
    return None


def _returns_from(function, name: str) -> bool:
    """``function`` returns ``name``, or what it computes from it (`return buf.mean()`)."""
    return any(type(node) is ast.Return and node.value is not None
               and any(type(n) is ast.Name and n.id == name for n in ast.walk(node.value))
               for node in ast.walk(function))

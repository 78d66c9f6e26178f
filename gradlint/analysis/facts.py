"""The facts the checks read, computed once per module by ``flow.walk_module``.

Each fact is a site in the source (an ``ast`` node) with the values the flow walker saw there.
Checks never walk the tree themselves: they filter facts and phrase findings.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import ast
import re

from gradlint.analysis.imports import ImportTable
from gradlint.analysis.values import Save, Value


@dataclass
class Function:
    """The function (or module body) a fact was found in."""

    node: ast.AST
    name: str  # "<module>" for top-level code
    class_name: str | None = None
    nograd: bool = False  # decorated with no_grad/inference_mode, or run under one by its class
    trains_locally: bool = False  # calls backward() or an optimizer's step() itself


# The kind of a cut made by copying values into a new tensor (``torch.tensor(log_probs)``).
REBUILD = "rebuild"
# `torch.autograd.grad(…)` without create_graph: gradients computed from the record, none of it
UNRECORDED_GRAD = "autograd.grad"
# `layer.weight.data = w`: the values of `w` put into a parameter without their history
STORAGE_REBOUND = ".data ="
# `model.state_dict()`: the parameters' values, detached (unless `keep_vars=True`)
STATE_DICT = ".state_dict()"


@dataclass
class Cut:
    """A ``.detach()`` / ``.data`` / no_grad region / rebuild whose operand carried history from
    trainables."""

    node: ast.AST
    kind: str  # ".detach()", ".data", "no_grad", REBUILD (``torch.tensor(tensors)``: a copy of the values) or UNRECORDED_GRAD
    tensor: str  # the operand as written
    upstream: set = field(default_factory=set)  # the trainables the operand carried
    function: Function | None = None
    loop: ast.AST | None = None  # the innermost loop it is in
    carried: bool = False  # its operand is state carried from the previous iteration
    # its operand, as the cut takes it, holds what an enclosing loop carries from one iteration
    # to the next (SinGAN's `self.blocks[stage](noise.detach(), g_res)`): a truncation
    truncates: bool = False
    # its operand was computed from a forward's inputs (`torch.sigmoid(logits).detach()`), not
    # an input itself (`pred.data`)
    of_computed_input: bool = False
    keys: set = field(default_factory=set)  # the upstream as optimizer coverage keys (``Net.self.conv``)
    inputs: set = field(default_factory=set)  # the forward inputs (``out0@input``) the operand was computed from
    written: str | None = None  # the cut as written, where it is not ``tensor`` + ``kind`` (``map(torch.detach, …)``)
    # a rebuild whose values had history only before a cut on their way (`logits.data.numpy()`
    # scored in Python): the values were cut on purpose unless the copy is a loss term alone
    # (a reward fed to the environment and back weighs a term; a copied score added is dead)
    through_cut: bool = False
    # its operand is a forward hook's output: the hooked module's activation, computed from
    # whatever the module was called on (no name of the file says what)
    hooked: bool = False
    # a rebuild made a leaf that requires grad (`torch.FloatTensor(rows).requires_grad_()`): the
    # user meant to train through the copy, whatever stays attached beside it
    leaf: bool = False
    # a copy made a leaf of a value already cut (`torch.tensor(v.detach(), requires_grad=True)`):
    # the spelling of a leaf made on purpose, a mistake only where an optimizer holds what it cuts
    of_cut: bool = False
    # a module's method detaching an input it is handed as is, then applying layers of its own
    # (a critic's `cat([s, a.detach()])`): a bug where the loss trains what computed the input
    # through a module it does not train (``starved._trains_through_an_untrained_module``)
    of_module_input: bool = False
    # its operand is a trainable leaf itself, not computed (`self.linear.weight.data`)
    of_leaf: bool = False
    # a no_grad region's result computed afresh there: a model run on values with no history
    # (the old policy's log-probs, a target network's values), not history recorded before it
    fresh: bool = False
    # for a STORAGE_REBOUND: the parameter whose storage took the values (`target.weight`)
    into: str | None = None

    @property
    def shown(self) -> str:
        return self.written or f"{self.tensor}{self.kind}"
    # For kind "no_grad": the region (``with torch.no_grad():``, a decorated def) in which the
    # expression ``node`` was computed from trainables without recording them.
    region: ast.AST | None = None


@dataclass(frozen=True)
class Return:
    node: ast.Return
    value: Value
    function: Function
    parts: tuple = ()  # for a returned tuple: (expression, value) per element, nested tuples flattened
    # the number of those elements each top-level element holds (`return x_hat, (mu, logvar), z`:
    # (1, 2, 1)), so that a caller unpacking the top level gets each its own
    shape: tuple = ()


@dataclass
class Backward:
    """A backward()/autograd.backward()/autograd.grad() call."""

    node: ast.Call
    root: str  # the root expression as written
    value: Value
    retain_graph: bool
    create_graph: bool
    function: Function
    loop: ast.AST | None = None
    accumulates: bool = True  # backward() adds into .grad; autograd.grad() returns the gradients
    # the backward call itself where ``node`` is a call of a helper that makes it on what it is
    # handed (`model.backward(loss)` running `loss.backward(retain_graph=True)`): the line to report
    inner: ast.AST | None = None
    root_from_outside: bool = False  # the root is bound before the loop, never inside it
    reads: set = field(default_factory=set)  # names the root expression indexes with
    # names bound before the loop, never inside it, to a tensor with history that the loss of
    # each iteration reads (`codes = encoder(x)` before `for epoch …: flow(codes)`)
    history_from_outside: tuple = ()
    # what the optimizers stepped after it (before the next backward of its function) update,
    # as coverage keys: None where no step follows it there; ``open_step``: one of them updates
    # what this file cannot name
    stepped: frozenset | None = None
    open_step: bool = False
    stepped_names: set = field(default_factory=set)  # the optimizers stepped, as written
    # in a loop, with carried state: the trainables of the modules the iteration hands that state
    # to (``rnn(x, h)``), whose weights the earlier iterations' records saved for its gradient
    fed: frozenset = frozenset()
    # of those, what the steps inside the backward's own loop update, and their optimizers
    stepped_in_loop: frozenset = frozenset()
    stepped_in_loop_names: frozenset = frozenset()
    # `autograd.grad(loss, list(actor.parameters()))`: the trainables its inputs name, the only
    # ones it differentiates (None: every leaf the root reaches, as backward() does)
    asks: frozenset | None = None
    containers: frozenset = frozenset()  # the carried names that hold a list or dict, not a tensor
    states: frozenset = frozenset()  # the carried names that are a model's state (``model.hidden``)
    # in a method, outside any loop: the receiver's attributes the root depends on that the method
    # carries from call to call (``self.state = self.cell(x, self.state)``)
    across_calls: frozenset = frozenset()

    @property
    def differentiated(self) -> frozenset:
        """The trainables this backward gives gradients: what ``asks`` names of what its root
        reaches, or all of that."""
        return self.value.trainables if self.asks is None else self.value.trainables & self.asks


@dataclass(frozen=True)
class Switch:
    """``t.requires_grad_()`` / ``t.requires_grad = True`` on a name."""

    node: ast.AST
    name: str | None  # None when the tensor is an expression, not a name
    value: Value
    intended_leaf: bool  # the name is later differentiated against or its .grad read
    function: Function


# The factory of a Rebuild no call wrote: a number pulled out (``aux.item()``) that an op with a
# tensor turns into a constant tensor (``loss + aux.item()``).
IMPLICIT = "<number in a tensor op>"


@dataclass(frozen=True)
class Rebuild:
    """``torch.tensor(x)`` and kin: a new tensor built from ``x``'s values."""

    node: ast.Call
    factory: str
    source: Value  # the value of the data argument
    requires_grad: bool
    function: Function
    fresh_copy: bool = False  # ``x.detach().clone()``: a new leaf made on purpose

    @property
    def copies_history(self) -> bool:
        """The data is a tensor that had autograd history to lose (data has none)."""
        source = self.source
        had_history = source.attached or source.live or source.lost or source.cuts or source.nograd
        # (a list filled with what may require grad, `values.append(row[0])`, or taken from a
        # container handed in with history, `[row[2] for row in rows]`, holds tensors)
        if source.container and (source.attached or source.live):
            return True
        # (`total = 0`, then `total += 1 - sim` over pairs: a number joined with tensors that carry
        # history is such a tensor wherever a term was added)
        return (source.tensor or source.attached) and source.computed and bool(had_history)

    @property
    def roundtrip(self) -> bool:
        """The data came out of tensors: pulled Python values, or a computed tensor itself
        (not a ``.detach().clone()`` copy, the spelling of a leaf made on purpose)."""
        return bool(self.source.pulled) or (self.copies_history and not self.fresh_copy)


@dataclass(frozen=True)
class Edit:
    """An in-place edit of a name: ``x.add_()``, ``x += y``, ``x[i] = y``, ``out=x``, inplace modules."""

    node: ast.AST
    name: str
    how: ast.AST | tuple  # the edit as written: a node, or (target node, " += …")
    saved: frozenset[Save]
    function: Function
    via_data: bool = False  # through ``.data``: the version counter does not move
    trainables: frozenset = frozenset()  # whose history the edited tensor carries
    recording: bool = True  # made with grad mode on (outside any no_grad region)
    as_bound: bool = False  # of the tensor the name was bound to, not one the body computed into it
    # the name whose storage the edited view shares (`scale = params.narrow(…)`), as it was bound
    base: str | None = None
    # a name whose very tensor it may be (`r = support` on an arm of an `if`), what an op saved
    same_as: str | None = None


@dataclass(frozen=True)
class StepBetween:
    """``opt.step()`` before the backward of a loss computed before the step, whose graph saved
    parameters that optimizer updates (the step edits them in place)."""

    node: ast.AST
    optimizer: str
    second: ast.AST
    root: str
    function: Function
    # the tensors recorded before the step that a root computed after it descends from
    through: tuple = ()
    # the models the root carries that the optimizer updates (`model.sharedNet`), as written
    shared: tuple = ()


@dataclass(frozen=True)
class BackpropUnderNoGrad:
    """A call, inside a no_grad/inference_mode region, of a function of this file that calls
    backward() on what it computes: nothing it computes is recorded, so its backward fails."""

    node: ast.Call
    callee: str  # the function as summarized (``FGSM.perturb``)
    backward: ast.AST  # its backward()/autograd.grad() call
    region: ast.AST
    function: Function


@dataclass(frozen=True)
class Rebound:
    """``self.model = copy.deepcopy(adapted)`` after an optimizer was given the parameters
    ``self.model`` held, then a backward through the new module and that optimizer's step: the
    step updates the old parameters, which no backward reaches."""

    node: ast.AST  # the assignment
    name: str  # the rebound name, as written (``self.model``)
    optimizer: str  # the optimizer stepped, as written
    step: ast.AST
    backward: Backward
    function: Function


@dataclass(frozen=True)
class SequentialEdit:
    """An ``inplace=True`` module placed right after a module that saves its output."""

    node: ast.AST
    module: ast.AST  # the in-place module's constructor call
    previous: ast.AST  # the module before it


@dataclass
class ModuleFacts:
    module: ast.Module
    imports: ImportTable
    lines: list[str] = field(default_factory=list)  # the source's lines, with their ends
    cuts: dict = field(default_factory=dict)  # node -> Cut
    returns: list[Return] = field(default_factory=list)
    backwards: list[Backward] = field(default_factory=list)
    switches: list[Switch] = field(default_factory=list)
    rebuilds: list[Rebuild] = field(default_factory=list)
    # (function node, name) -> the rebuilds a name was bound to where the value held nothing else
    # (`loss = torch.tensor(loss.item(), requires_grad=True)` on one path): a backward of the name
    # after the paths join backpropagates the bare copy on that path
    bare_copies: dict = field(default_factory=dict)
    edits: list[Edit] = field(default_factory=list)
    steps: list[StepBetween] = field(default_factory=list)
    sequential_edits: list[SequentialEdit] = field(default_factory=list)
    # cuts whose values multiply an attached operand (`-log_prob * advantage.detach()`): weights
    weighing: set = field(default_factory=set)
    # What the module's optimizers update: coverage keys (``model``, ``Net.*``, ``Net.self.head``)
    # for every optimizer built, and per optimizer bound to a name.
    optimized: set = field(default_factory=set)
    optimizers_open: bool = False  # some optimizer's parameters could not be resolved
    # some optimizer is given the parameters that require grad (`[p for p in model.parameters()
    # if p.requires_grad]`): what still requires grad is meant to train
    optimizes_what_requires_grad: bool = False
    # the module is a whole program no other file imports (a notebook's joined cells): what it
    # never backpropagates and builds no optimizer for is trained nowhere
    whole_program: bool = False
    leaves: set = field(default_factory=set)  # names bound to leaves made to require grad
    intended_rebuilds: set = field(default_factory=set)
    # functions of the file whose result a call binds to a leaf made on purpose (`self.image =
    # preprocess(self.created)`, then `SGD([self.image])`): the leaf they make is that one
    leaf_makers: set = field(default_factory=set)
    frozen: set = field(default_factory=set)  # what the module freezes (`X.requires_grad_(False)`)
    # of those, what it switches off itself (`requires_grad_(False)`, and objects holding only
    # such models), not a model it trains and then evaluates: frozen in every phase
    switched_off: set = field(default_factory=set)
    # a name bound to a module of torch built from this file's modules -> those classes
    # (`model = nn.Sequential(FeatureGate(6), nn.Linear(6, 1))` -> {"FeatureGate"})
    members: dict = field(default_factory=dict)
    # ``Class.self.x`` for each attribute a class's ``__init__`` sets straight from one of its
    # parameters (``self.prior = prior``): a model built elsewhere and handed in, not a part of
    # one the class builds.
    handed_members: set = field(default_factory=set)
    parameters: dict = field(default_factory=dict)  # module-level function -> its parameter names
    # A function parameter taken to be a model (``net@embed``) -> the trainables its callers pass.
    param_sources: dict = field(default_factory=dict)
    # Such a parameter every call hands a list or tuple display of one length (`train([net_g,
    # net_d])`) -> that length (None once a call hands anything else): what each position holds
    # is ``param_sources`` of ``nets#0@train``, ``nets#1@train``, …
    param_positions: dict = field(default_factory=dict)
    # `.item()`/`.numpy()`/`.tolist()` node -> the trainables whose history the pulled tensor held
    pulled_from: dict = field(default_factory=dict)
    # the same, without what cuts on the way had (`y.detach().item()`): the history the values lose
    pulled_history: dict = field(default_factory=dict)
    # the same node -> the cuts on the way (`y.detach()`, a no_grad region `y` was computed in)
    pulled_cuts: dict = field(default_factory=dict)
    # ``storage@reinforce_update`` -> the pull sites of what some call hands that parameter
    pulled_arguments: dict = field(default_factory=dict)
    # Of those, where every call hands a dict display of the same keys: per key, its pulls
    # (``values.Value.fields``); None once a call hands anything else.
    pulled_fields: dict = field(default_factory=dict)
    # Those of them that some call site hands a model itself (not a tensor or a list it computed).
    model_arguments: set = field(default_factory=set)
    # What call sites hand module-level functions, per parameter (``probs@mask_invalid_``):
    # a tensor that may require grad, and the Saves of tensors an op saved.
    live_arguments: set = field(default_factory=set)
    # What call sites hand a method of this file's class (``fake@GAN.g_steps``): the receiver's
    # members that computed it, as the method names them (``gan.netG`` -> ``self.netG``); None
    # once some call hands anything else.
    member_arguments: dict = field(default_factory=dict)
    saved_arguments: dict = field(default_factory=dict)  # Rebuild nodes bound to leaves made on purpose
    # (module class of this file, argument position or keyword) -> every call seen passes a plain value
    forward_plain: dict = field(default_factory=dict)
    # the same key -> every call seen passes a value without history
    forward_still: dict = field(default_factory=dict)
    # the same keys some call hands a module (`criterion(x, y, student, teacher)`): a parameter
    # of the forward that it calls is a model, whatever its name
    forward_models: set = field(default_factory=set)
    # (class, method) of the methods a forward hands its own inputs, which stand for them there
    forward_helpers: set = field(default_factory=set)
    # the same key -> the functions (nodes) whose calls hand it a leaf they made to read its
    # gradient (`x = torch.randn(…, requires_grad=True)`, `x.grad` read, no optimizer given it):
    # a probe of which inputs the module differentiates
    forward_probed: dict = field(default_factory=dict)
    # the same key -> the Saves of what some call hands it that an op saved (`dec(enc(x))` when
    # the encoder ends in tanh): an edit of that input in place breaks the caller's backward
    forward_saved: dict = field(default_factory=dict)
    # the same key -> some call hands it a value computed from trainables (`x = layer(x)` in a loop
    # over a stack of the class's layers): the call site, the first seen
    forward_attached: dict = field(default_factory=dict)
    # (``Class.__init__``, position or keyword) -> the classes of this project whose instances the
    # calls hand it (None: something else); `self.env = env` then holds one of them.
    init_instances: dict = field(default_factory=dict)
    # (``Class.__init__``, position or keyword) -> whether every call hands it a model the module
    # freezes (``facts.frozen``)
    init_frozen: dict = field(default_factory=dict)
    optimizers: dict = field(default_factory=dict)
    # optimizer name -> the methods of its project class besides step() that update in place
    stepping: dict = field(default_factory=dict)
    # What calling each function, method and module of this file does (``summaries.Summary``),
    # keyed ``f``, ``Class.method`` and ``Class`` (calling an instance).
    summaries: dict = field(default_factory=dict)
    nograd_backprops: list = field(default_factory=list)
    # Copies a function of this file makes of what a call of it hands attached (a helper's
    # `torch.from_numpy(…)` of `x.detach().numpy()`): they dropped a history, whatever its own walk saw
    lossy_rebuilds: set = field(default_factory=set)
    # The `torch.set_grad_enabled(False)` of an imported module's top level this module's own
    # top level runs under (``View.switched_off_by_import``)
    import_switch: object = None
    rebounds: list = field(default_factory=list)  # Rebound
    # a forward binding a parameter anew from its own values at every call (``scan.rewrapped_parameters``)
    rewrapped: list = field(default_factory=list)
    # (class, method) -> the method's events on its receiver in walk order (``sequence.Event``);
    # None for a method that may return early
    member_events: dict = field(default_factory=dict)
    # optimizer key (``Trainer.self.opt``) -> the call that built it, the last one walked
    optimizer_nodes: dict = field(default_factory=dict)
    # calls, with grad mode the caller's, of functions that backpropagate what they compute
    backprop_calls: list = field(default_factory=list)
    # calls of functions whose backward trains what the call hands them: (call, those trainables)
    trained_by_calls: list = field(default_factory=list)
    starved: list | None = None  # ``starved.starved``'s answer, once computed
    # What call sites hand module-level functions, per parameter, when it is an instance of one of
    # this file's classes (``attack@robust_accuracy`` -> {"FGSM"}): its methods' summaries apply.
    param_instances: dict = field(default_factory=dict)
    # Of those, the parameters only callers in the project's other files hand an instance
    # (``View.handed_classes``): no walk of this file names the model they hold.
    caller_instances: set = field(default_factory=set)
    # What call sites hand module-level functions, per parameter, where it is a container of rows
    # (``rows@update`` -> the values at each position, joined over the call sites).
    handed_rows: dict = field(default_factory=dict)
    # What call sites hand module-level functions, per parameter, where every one hands a function
    # of this file (``scale_fn@generator_grad`` -> {"normalize_and_scale", …}; None: something else)
    handed_functions: dict = field(default_factory=dict)
    # (class, attribute) -> the functions the project's other files hand its constructor there
    handed_to_init: dict = field(default_factory=dict)

    # A node of another file of the project that a summary carried into this module's facts (a
    # cut, a save) -> the call in this module that reached it: where a finding about it is placed.
    call_sites: dict = field(default_factory=dict)

    def callee(self, qualname: str | None):
        """The summary of what calling ``qualname`` does, or None where it is not known: a
        function or class of this file, else one of another file of the project that the module
        imports (``imports.project``)."""
        if qualname is None:
            return None
        found = self.summaries.get(qualname)
        if found is None and self.imports.project is not None:
            found = self.imports.project.callee(qualname)
        return found

    def lost_history(self, rebuilt) -> frozenset:
        """Of the copies ``rebuilt`` names (``Value.rebuilt``), those that dropped a history: not
        a copy of values pulled out of tensors that had none left (GAE advantages computed under
        no_grad, then `torch.tensor(adv)`), where what lost it is elsewhere."""
        by_node = {rebuild.node: rebuild for rebuild in self.rebuilds}

        def lossless(rebuild) -> bool:
            source = rebuild.source
            # (a `.detach()`/`.data` on the way is the round trip's own: `out.data.numpy()`)
            return bool(source.pulled) and not source.attached and all(
                pull in self.pulled_history and not self.pulled_history[pull]
                and all(getattr(self.cuts.get(cut), "kind", None) == "no_grad" for cut in self.pulled_cuts.get(pull, ()))
                for pull in source.pulled)
        return frozenset(node for node in rebuilt
                         if node not in by_node or node in self.lossy_rebuilds or not lossless(by_node[node]))

    def resolve(self, names, depth: int = 0) -> set:
        """Model parameters (``net@embed``) replaced by what their callers pass, transitively
        (``param_sources``): ``disc@train_step`` is the ``disc`` that ``main()`` built."""
        out = set()
        for name in names:
            sources = self.param_sources.get(name)
            if sources and depth < 8:
                out |= self.resolve(sources, depth + 1)
                continue
            head, at, function = name.partition("@")
            root, dot, member = head.partition(".")
            sources = self.param_sources.get(f"{root}@{function}") if at and dot else None
            if sources and depth < 8:
                # (`gan.gen@train`, a member of the model handed to `train`: that member of each
                # model its callers hand it)
                out |= {f"{r}.{member}" for r in self.resolve(sources, depth + 1)}
            else:
                out.add(name)
        return out

    def code(self, node: ast.AST | tuple) -> str:
        """The source text of a node on one line; ``(node, suffix)`` appends the suffix.
        Facts keep nodes, and checks render only what they report."""
        if isinstance(node, tuple):
            node, suffix = node
            return self.code(node) + suffix
        from gradlint.analysis.project import origin

        other = origin(node)  # a node of another file reads in that file's lines
        return _short(other.lines if other is not None else self.lines, node)


SHORT = 60  # the longest expression a message quotes whole


def _short(lines: list[str], node: ast.AST) -> str:
    """The node's text on one line, at most ``SHORT`` characters: a long call keeps what it
    calls and drops its arguments (``F.layer_norm(...)``), a long attribute or subscript its
    own end (``F.layer_norm(...).mean``), so a message still names the user's function."""
    text = " ".join(source_segment(lines, node).split())
    if len(text) <= SHORT:
        return text
    kind = type(node)
    if kind is ast.Call:
        short = _short(lines, node.func) + "(...)"
    elif kind is ast.Attribute:
        short = _short(lines, node.value) + "." + node.attr
    elif kind is ast.Subscript:
        short = _short(lines, node.value) + "[...]"
    else:
        short = text
    return short if len(short) <= SHORT else short[:SHORT - 3] + "..."


def source_lines(text: str) -> list[str]:
    """The lines as Python's tokenizer counts them (``str.splitlines`` also splits at form feeds
    and other characters Python does not end a line at), each with its end."""
    if _OTHER_BREAKS.search(text) is None:  # (most files: then the two agree, and this is C)
        return text.splitlines(keepends=True)
    return _LINE.findall(text)


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
# What str.splitlines ends a line at besides "\n": where none occurs, it splits as Python does.
_OTHER_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def source_segment(lines: list[str], node: ast.AST) -> str:
    """The text of ``node`` (``ast`` gives its columns as UTF-8 byte offsets)."""
    first, last = node.lineno - 1, node.end_lineno - 1
    if last >= len(lines):
        return ast.unparse(node)  # (a node of a file whose lines these are not: its own text)
    if first == last:
        return lines[first].encode()[node.col_offset:node.end_col_offset].decode(errors="replace")
    head = lines[first].encode()[node.col_offset:].decode(errors="replace")
    tail = lines[last].encode()[:node.end_col_offset].decode(errors="replace")
    return "".join([head, *lines[first + 1:last], tail])


def module_facts(module: ast.Module, source: str, project=None, path: str | None = None,
                 whole_program: bool = False) -> ModuleFacts:
    """``project`` (a ``project.Project``) and ``path``: the module's imports are followed into
    the project's other files, whose summaries the walk reads at their call sites (the view is
    left on ``facts.imports.project``); without them the file is read alone. ``whole_program``:
    nothing imports it (a notebook)."""
    from gradlint.analysis.flow import walk_module

    facts = walk_module(module, source_lines(source), project=project, path=path)
    facts.whole_program = whole_program
    return facts

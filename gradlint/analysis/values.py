"""The abstract value of an expression: what a name holds, in autograd's terms.

The flow walker (``flow.py``) computes one ``Value`` per expression and per name binding.
Sets hold what is true on some path. A cut keeps, per cut, the trainables that accompany it on the
paths where it is present, so a branch that detaches and one that does not are told apart when
they join, and a stop-gradient beside an attached operand is told from a cut of the only path.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import ast

EMPTY: frozenset = frozenset()


@dataclass(frozen=True)
class Save:
    """A recorded op that saved this tensor for backward (``u ** 2`` saves ``u``)."""

    op: str  # as written: "**", "F.relu", "self.conv_1"
    node: ast.AST = field(compare=False, hash=False)
    line_key: int = 0  # id(node): keeps distinct sites distinct in a set
    view: str | None = field(default=None, compare=False, hash=False)  # saved as this view (``f[i - 1]``)
    # ``view`` is the very tensor under another name (``pitch_cond = condition``), not a view of it
    renamed: bool = field(default=False, compare=False, hash=False)
    # In a summary walk: the parameters (by position) of which one must require grad for the op
    # to save this tensor (``beta * p`` saves ``p`` for ``beta``'s gradient only); empty: always.
    needs: frozenset = field(default=frozenset(), compare=False, hash=False)

    @staticmethod
    def at(op: str, node: ast.AST) -> "Save":
        return Save(op, node, id(node))


@dataclass(frozen=True)
class ModuleInfo:
    """What an ``nn`` module held by a name or ``self`` attribute is, from its constructor."""

    qualname: str  # torch.nn.Conv2d, or a class of this file
    inplace: bool = False
    saves_input: bool | None = None  # None: unknown
    saves_output: bool | None = None
    nograd_call: bool = False  # its __call__/forward runs under no_grad
    parameters: bool = True  # holds trainable parameters (a loss or an activation does not)
    # each call renormalises the rows it looks up in its weight in place (``nn.Embedding(…, max_norm=1.0)``)
    renorms: bool = False
    # an ``nn.ModuleList`` whose every element is one kind of module: what each element is
    items: "ModuleInfo | None" = None
    # the positions of the other arguments its forward saves (``nn.CrossEntropyLoss`` saves the
    # target, 1): an in-place edit of one before the backward breaks it
    saves_args: frozenset = frozenset()


@dataclass(frozen=True)
class Value:
    trainables: frozenset = EMPTY  # may: the trainables whose history it carries, not through a cut
    post: frozenset = EMPTY  # may: trainables applied to it downstream of a cut
    # may: the .detach()/.data nodes it descends from, each with the trainables that join it on the
    # paths where that cut is present (an attached operand beside a stop-gradient)
    cuts: dict = field(default_factory=dict)
    nograd: frozenset = EMPTY  # may: no_grad/inference_mode regions it was computed in
    pulled: frozenset = EMPTY  # may: .item()/.tolist()/.numpy()/float() nodes it descends from
    rebuilt: frozenset = EMPTY  # may: tensor rebuilds from pulled values it descends from
    carried: frozenset = EMPTY  # may: loop-carried names (with history) it descends from
    saved: frozenset = EMPTY  # Save records for this very tensor (bindings only)
    # may: Save records of the tensors a list, tuple or dict holds (`[F.relu(c(f)) for …]`): an
    # element edited in place (`laterals[i] += …`) is one of them
    held: frozenset = EMPTY
    tensor: bool = False  # known to be a tensor
    computed: bool = False  # result of an op or call, not a bare name or attribute
    const: bool = False  # known not to require grad
    module: ModuleInfo | None = None
    optimizer: bool = False
    live: bool = False  # may require grad by its context (a forward() input, a seeded parameter)
    # may: the forward() inputs (``pred@input``) whose history it carries, not through a cut; a cut
    # of such a value starves whatever computed them, unless it scales them (``flow.scaled``)
    inputs: frozenset = EMPTY
    alias: str | None = None  # the name whose storage it shares (``h.detach()``, ``h[0]``, ``h.data``)
    # shares that storage through ``.data``, without its version counter: an edit of it is no
    # error at backward, the gradient silently reads the edited values
    unversioned: bool = False
    lost: bool = False  # computed from tensors with history by an op autograd cannot follow (``p > 0.5``)
    # known to hold no torch tensor: a Python number, bool, string or None, a value of a library
    # that makes none (math, NumPy, SymPy, argparse), or what is computed from such values only.
    # ``eta *= 0.5`` on one rebinds a name: nothing is edited in place, nothing was saved.
    plain: bool = False
    # may: (optimizer step, name) for each step that updated in place parameters the graph this
    # value descends from had saved, recorded before the step under that name (``d_fake`` before
    # ``opt_d.step()``): a backward through it reads the edited weights
    stale: frozenset = EMPTY
    # a list, tuple, dict or set (a display, a comprehension, one filled by ``append``): what it
    # holds may be tensors, but it is none, and indexing it gives an element, not a view
    container: bool = False
    # A tuple or list display: the value at each position (`(obs, log_prob, reward)`), so that
    # what is unpacked or indexed from it by position is that element, not the whole.
    parts: tuple | None = None
    # A container filled with such displays (`memory.append((obs, log_prob, reward))`): the
    # values at each position of the rows it holds, joined over the rows. Its items have
    # these parts (`[m[1] for m in memory]` holds log-probabilities, `[m[0] …]` observations).
    rows: tuple | None = None
    # may-not: trainables of layers of torch applied in this graph only to inputs without history
    # (`nn.Linear(5, 1)(x)` on data): such a layer saves its weight only for its input's
    # gradient, so the graph saved none of theirs, and a step that updates them breaks nothing
    weightless: frozenset = EMPTY
    # may: cuts added into a sum as a term of their own, with nothing attached beside them in that
    # term (`policy_loss + 0.5 * (returns - values.detach()).pow(2).mean()`), whatever the same
    # cut does in another term (the advantage beside the log-probabilities): that term adds a
    # number and no gradient
    dead: frozenset = EMPTY
    # may be a ``PackedSequence`` (``pack_sequence(seqs)``, or what a module given one returns, as
    # an RNN does): a named tuple whose ``.data`` is a field, the packed tensor with its history,
    # not ``Tensor.data``
    packed: bool = False
    # A dict display with constant keys (`{"log_probs": taken, "rewards": rewards}`): the value
    # under each key, so that `batch["rewards"]` read from it, here or where a function returns
    # it or hands it on, is that value, not what every key holds together.
    fields: tuple | None = None

    @property
    def attached(self) -> bool:
        """Whether it may carry autograd history from a known trainable."""
        return bool(self.trainables or self.post or self.carried)

    def __or__(self, other: "Value") -> "Value":
        """Both operands of one operation, on the same path."""
        both = self.trainables | other.trainables
        cuts = {c: _companions(self, other, c) | both for c in self.cuts.keys() | other.cuts.keys()}
        return _value(
            trainables=both, post=self.post | other.post, inputs=self.inputs | other.inputs,
            cuts=cuts, nograd=self.nograd | other.nograd,
            pulled=self.pulled | other.pulled, rebuilt=self.rebuilt | other.rebuilt,
            carried=self.carried | other.carried, tensor=self.tensor or other.tensor,
            computed=True, const=self.const and other.const, live=self.live or other.live,
            lost=self.lost or other.lost, plain=self.plain and other.plain,
            stale=self.stale | other.stale, dead=self.dead | other.dead,
            weightless=_weightless((self, other)) if self.weightless or other.weightless else EMPTY,
        )

    def join(self, other: "Value") -> "Value":
        """Two paths meeting (after a branch or a loop)."""
        if other is self or other is NOTHING_YET:
            return self
        if self is NOTHING_YET:
            return other
        cuts = {c: _companions(self, other, c) for c in self.cuts.keys() | other.cuts.keys()}
        return _value(
            trainables=self.trainables | other.trainables, post=self.post | other.post,
            inputs=self.inputs | other.inputs, cuts=cuts, nograd=self.nograd | other.nograd,
            pulled=self.pulled | other.pulled, rebuilt=self.rebuilt | other.rebuilt,
            carried=self.carried | other.carried, saved=self.saved | other.saved,
            held=self.held | other.held,
            tensor=self.tensor and other.tensor, computed=self.computed and other.computed,
            const=self.const and other.const,
            module=joined_module(self.module, other.module),
            optimizer=self.optimizer and other.optimizer, live=self.live or other.live,
            lost=self.lost or other.lost, plain=self.plain and other.plain,
            stale=self.stale | other.stale, dead=self.dead | other.dead,
            container=self.container and other.container, packed=self.packed or other.packed,
            parts=joined_rows(self.parts, other.parts), rows=joined_rows(self.rows, other.rows),
            weightless=_weightless((self, other)) if self.weightless or other.weightless else EMPTY,
            fields=joined_fields(self.fields, other.fields),
        )

    def result(self) -> "Value":
        """This value as the result of an op: a new tensor nothing has saved yet."""
        return replace(self, saved=EMPTY, computed=True, module=None, optimizer=False, parts=None, rows=None,
                       fields=None)

    def field(self, key) -> "Value | None":
        """The value under ``key`` of a dict display, or None where unknown."""
        return next((value for k, value in self.fields if k == key), None) if self.fields else None


def joined_fields(a: tuple | None, b: tuple | None) -> tuple | None:
    """Two paths' dicts with the same keys, key by key; None where they differ."""
    if a is None or b is None or [k for k, _ in a] != [k for k, _ in b]:
        return None
    return tuple((k, x.join(y)) for (k, x), (_, y) in zip(a, b))


def joined_module(a: ModuleInfo | None, b: ModuleInfo | None) -> ModuleInfo | None:
    """Two paths' modules of one class (``nn.Sequential(*layers, nn.Tanh()) if tanh else
    nn.Sequential(*layers)``): what either may save, it may save."""
    if a == b:
        return a
    if a is None or b is None or a.qualname != b.qualname:
        return None
    return ModuleInfo(a.qualname, inplace=a.inplace or b.inplace, saves_input=_may(a.saves_input, b.saves_input),
                      saves_output=_may(a.saves_output, b.saves_output), nograd_call=a.nograd_call and b.nograd_call,
                      parameters=a.parameters or b.parameters, items=a.items if a.items == b.items else None)


def _may(a: bool | None, b: bool | None) -> bool | None:
    return True if a or b else None if a is None or b is None else False


def joined_rows(a: tuple | None, b: tuple | None) -> tuple | None:
    """Two paths' values per position, joined position by position where both know them."""
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x.join(y) for x, y in zip(a, b))


def with_row(container: "Value", row: "Value") -> tuple | None:
    """The ``rows`` of ``container`` once ``row`` is added to it (``append``)."""
    if row.parts is None:
        return None
    if container is NOTHING_YET or (container.rows is None and not (
            container.attached or container.live or container.tensor or container.held)):
        return row.parts  # (an empty list, as a constant attribute's value is known)
    return joined_rows(container.rows, row.parts)


# A frozen dataclass's __init__ sets every field through object.__setattr__, and the walker
# makes hundreds of thousands of values per corpus: these two fill the instance dict directly.
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Value) if f.name != "cuts"}


def _value(**fields) -> Value:
    """``Value(**fields)``; ``cuts`` must be given (its default is a fresh dict)."""
    new = object.__new__(Value)
    state = new.__dict__
    state.update(_DEFAULTS)
    state.update(fields)
    return new


def replace(value, /, **changes):
    """``dataclasses.replace``, copying a Value's fields without its ``__init__``."""
    if type(value) is not Value:
        return dataclasses.replace(value, **changes)
    new = object.__new__(Value)
    state = new.__dict__
    state.update(value.__dict__)
    state.update(changes)
    return new


def _weightless(values) -> frozenset:
    """``Value.weightless`` of values combined: a layer stays weightless only where no operand's
    graph saved its weight."""
    weightless = EMPTY.union(*(v.weightless for v in values))
    if not weightless:
        return EMPTY
    return weightless - EMPTY.union(*(v.trainables - v.weightless for v in values))


def _companions(a: Value, b: Value, cut) -> frozenset:
    return a.cuts.get(cut, EMPTY) | b.cuts.get(cut, EMPTY)


def union(values) -> Value:
    """``CONST | v1 | v2 | ...`` (the operands of one operation), in one pass: folding ``|``
    copies every cut met so far at each step, so a list of thousands of ``.detach()`` calls took
    time quadratic in them. Each cut ends with its own companions and every operand's trainables, as
    the fold gives it."""
    values = list(values)
    if not values:
        return CONST
    if len(values) == 1:  # (one operand: each cut keeps the companions it had)
        return replace(CONST | values[0], plain=values[0].plain, cuts=values[0].cuts)
    # One pass over the operands (the walker joins hundreds of thousands of them per corpus,
    # and most of their sets are empty).
    trainables = post = nograd = pulled = rebuilt = carried = inputs = stale = dead = EMPTY
    tensor = live = lost = weightless = False
    const = plain = True
    companions: dict = {}
    for value in values:
        state = value.__dict__
        weightless = weightless or bool(state["weightless"])
        if state["trainables"]:
            trainables = trainables | state["trainables"]
        if state["post"]:
            post = post | state["post"]
        if state["nograd"]:
            nograd = nograd | state["nograd"]
        if state["pulled"]:
            pulled = pulled | state["pulled"]
        if state["rebuilt"]:
            rebuilt = rebuilt | state["rebuilt"]
        if state["carried"]:
            carried = carried | state["carried"]
        if state["inputs"]:
            inputs = inputs | state["inputs"]
        if state["stale"]:
            stale = stale | state["stale"]
        if state["dead"]:
            dead = dead | state["dead"]
        tensor = tensor or state["tensor"]
        live = live or state["live"]
        lost = lost or state["lost"]
        const = const and state["const"]
        plain = plain and state["plain"]
        for cut, joined in state["cuts"].items():
            companions.setdefault(cut, []).append(joined)
    return _value(
        trainables=trainables, post=post, inputs=inputs,
        cuts={cut: trainables.union(*joined) for cut, joined in companions.items()},
        nograd=nograd, pulled=pulled, rebuilt=rebuilt, carried=carried,
        tensor=tensor, computed=True, const=const, live=live, lost=lost, plain=plain, stale=stale, dead=dead,
        weightless=_weightless(values) if weightless else EMPTY,
    )


CONST = Value(const=True)
PLAIN = Value(const=True, plain=True)  # a literal, a length, a shape: no tensor
UNKNOWN = Value()
# An empty list, dict or tuple: what it will hold is joined in later (``losses.append(loss)``),
# so on the path that never fills it, it does not weaken what the filled path knows.
NOTHING_YET = Value(const=True, container=True)
LIVE = Value(live=True)

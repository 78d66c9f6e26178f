"""Watch a run and decide each finding from the autograd record.

The ``Tracer`` is a ``TorchFunctionMode``: every torch function and tensor method the program
calls passes through ``__torch_function__`` and runs unchanged; the mode only looks. It

- keeps **value lineage** for values whose history was cut: a probed ``.detach()`` result, a
  tensor rebuilt from ``.item()`` values, a tensor made under ``no_grad``, each carries "these
  leaves influenced me, through finding N" to every tensor computed from it;
- stops at every ``backward()`` / ``autograd.backward()`` / ``autograd.grad()`` to read the
  record before autograd frees it: the leaves the roots reach, the lineage the roots carry, the
  number of nodes, and whether a saved tensor's version moved since it was saved;
- learns which leaves were meant to train: those an optimizer holds (``add_param_group`` is
  wrapped), or, in a run with no optimizer, those the program updates, asks ``autograd.grad``
  for, or whose ``.grad`` it reads.

It never changes a value, never registers ``saved_tensors_hooks`` (a pair that returns the
tensor unchanged would switch off PyTorch's own version check, and a program that should raise
would compute a wrong gradient instead), and an error in the tracer itself is recorded and
swallowed, never raised into the program.

This module is the mode itself: what each torch call is (``_kind``), the probes the
instrumented code calls, and the verdicts, which each rule's module decides (``decide``). The
other jobs are modules of their own: ``lineage`` (the side table of cut values), ``naming``
(leaves and the names the evidence gives them), ``backwards`` (what each backward call shows),
``optimizers`` (which leaves an optimizer holds), ``evidence`` (what is kept per finding) and
``verdicts`` (what the rules' decisions share).

What the mode gathers for a finding follows the kinds of evidence its rule module declares
(``EVIDENCE``, from ``evidence.KINDS``), never the rule's code.

PyTorch: https://pytorch.org/docs/stable/notes/extending.html#extending-all-torch-api-with-modes
"""
from __future__ import annotations

import contextlib
import os
import sys
import weakref

import torch
from torch.overrides import TorchFunctionMode

from gradlint.dynamic import optimizers, record
from gradlint.dynamic.backwards import BackwardEvidence
from gradlint.dynamic.evidence import Evidence, SeenEdit, kinds_of
from gradlint.dynamic.lineage import FROZEN_HELD, NOGRAD, Lineage, carries, flat_tensors, merge, outputs, tensors_in
from gradlint.dynamic.naming import Leaf, Naming, user_frames

SAMPLE_RUNS = 16  # runs of a probe that walk the record upstream of it; later runs reuse them

_BACKWARDS = {torch.Tensor.backward, torch.autograd.backward, torch.autograd.grad}
# Properties whose value is computed from the tensor; other getters (.grad, .shape, .device)
# hand out state, not a result, and carry no lineage.
_COMPUTED_PROPERTIES = {"data", "T", "mT", "H", "mH", "real", "imag"}
# What the mode does with a torch function, decided once per function.
_OP, _BACKWARD, _GRAD, _STATE = "op", "backward", "grad", "state"
_KINDS: dict = {}


def _kind(func) -> str:
    if func in _BACKWARDS:
        kind = _BACKWARD
    elif getattr(func, "__name__", "") == "__get__":
        prop = getattr(getattr(func, "__self__", None), "__name__", "")
        kind = _GRAD if prop == "grad" else _OP if prop in _COMPUTED_PROPERTIES else _STATE
    else:
        kind = _OP
    try:
        _KINDS[func] = kind
    except TypeError:  # an unhashable callable: classified each time
        pass
    return kind


class Tracer(Naming, Lineage, BackwardEvidence, TorchFunctionMode):
    """Watches one run. ``files``: the real paths of the instrumented modules (their frames are
    the user's); each finding is added with ``add_finding`` when its module is instrumented, as
    the child received it (``instrument.ProbedFinding``: ``code``, ``path``, ``line``,
    ``end_line``, ``label``, ``tensor``); what the run shows about it is its ``Evidence``."""

    def __init__(self, files: set[str], show_graph: bool = False):
        super().__init__()
        self.evidence: dict[int, Evidence] = {}
        self.files = set(files)
        self.show_graph = show_graph
        self.track_history_loss = False  # a "history_loss" site: follow values whose history was lost
        self.track_saves = False  # a "saved_lines" site: note where each node of the record was made
        self.backward_sites: list[tuple[int, Evidence]] = []  # "backward_site" findings
        self.busy = False
        self.lineage: dict[int, tuple[weakref.ref, dict]] = {}
        self.leaves: dict[int, Leaf] = {}  # key -> leaf
        self.key_of: dict[int, int] = {}  # id(tensor) -> key
        self.next_key = 0
        self.reached: set[int] = set()  # keys of leaves some backward reached
        self.reached_uses: dict[int, set[str]] = {}  # key -> how those records used it (leaf_uses)
        # key -> the backward calls that reached it, numbered, as runs of consecutive numbers
        self.reached_at: dict[int, list[tuple[int, int]]] = {}
        self.backwards = 0
        self.leaf_backwards = 0  # backward calls whose every root was a leaf (no record behind it)
        self.optimizers = 0
        self.held: set[int] = set()  # ids of tensors an optimizer holds
        self.held_refs: list = []  # ... kept alive, so that their ids stay theirs
        # id of a tensor that requires grad -> [steps of an optimizer that found its gradient,
        # steps that found none]
        self.steps_seen: dict[int, list[int]] = {}
        self.asked: set[int] = set()  # ids of tensors autograd.grad was asked for
        self.grad_read: set[int] = set()
        self.module_names: dict[int, dict[int, str]] = {}
        self.errors: list[str] = []
        self.raised: BaseException | None = None
        # backward calls that raised for want of history: (the user's (file, line) frames,
        # innermost first; whether autograd was recording, grad mode on and inference mode off;
        # PyTorch's message); the first hundred (a loop catching the error keeps no more)
        self.failed_backwards: list[tuple[list, bool, str]] = []
        self.processes = 0  # processes the program started (forked, spawned): not followed
        self._user: dict[str, bool] = {}
        self.cwd = os.getcwd() + os.sep
        self.prefixes = tuple({sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.dirname(__file__))})
        self._watched: dict[int, tuple[weakref.ref, list]] = {}  # id(in-place module) -> (ref, evidence)
        self._module_hook = None  # the global forward pre-hook that watches them

    def add_finding(self, fid: int, finding: dict) -> None:
        """A finding whose module was just instrumented (modules are instrumented on import); what
        the run must gather for it is what its rule module declares."""
        from gradlint.checks import BY_CODE

        # (where the evidence places the flagged code: "line 27", or "utils.py, line 27" for a
        # site inside a helper of another file than the finding's)
        if not finding.get("where"):
            finding["where"] = f"line {finding['line']}"
        kinds = kinds_of(BY_CODE.get(finding["code"])) | frozenset(finding.get("kinds", ()))
        evidence = self.evidence[fid] = Evidence(finding, kinds)
        self.track_history_loss |= "history_loss" in kinds
        self.track_saves |= "saved_lines" in kinds
        if "backward_site" in kinds:
            self.backward_sites.append((fid, evidence))

    # ---- the mode ------------------------------------------------------------------------------

    def __torch_function__(self, func, types, args=(), kwargs=None):
        __tracebackhide__ = True  # pytest: the user's traceback, not the tracer's frame  # noqa: F841
        if kwargs is None:
            kwargs = {}
        if self.busy:
            return func(*args, **kwargs)
        try:
            kind = _KINDS[func]
        except (KeyError, TypeError):
            kind = _kind(func)
        if kind is _STATE:  # .shape, .device …: state handed out, not a result
            return func(*args, **kwargs)
        if kind is _GRAD:
            # (read by the user's code, `p.grad.clone()`: not torch's own, an optimizer's step or
            # `model.zero_grad()` going over every parameter)
            caller = sys._getframe(1)
            while caller is not None and caller.f_code.co_filename == __file__:
                caller = caller.f_back
            if args and caller is not None and self.is_user(caller.f_code.co_filename):
                self.grad_read.add(id(args[0]))
                key = self.key_of.get(id(args[0]))
                if key is not None and self.leaves[key].ref() is args[0]:
                    self.leaves[key].read = True  # (known once the run has freed it)
            return func(*args, **kwargs)
        if kind is _BACKWARD:
            self._guard(self._on_backward, func, args, kwargs)
            try:
                out = func(*args, **kwargs)
            except RuntimeError as err:
                if "does not require grad" in str(err) and len(self.failed_backwards) < 100:
                    # (a backward inside a function its caller runs under no_grad: the error the
                    # program may catch is the evidence, with the user's lines that led to it)
                    self.failed_backwards.append((
                        [(f.f_code.co_filename, f.f_lineno) for f in user_frames(sys._getframe(0), self.is_user)],
                        torch.is_grad_enabled() and not torch.is_inference_mode_enabled(),
                        str(err).splitlines()[0]))
                raise
        else:
            out = func(*args, **kwargs)
        # Most ops (an optimizer's, say) take no tensor that carries lineage: with no history
        # loss or saves to track, _after_op would do nothing for them, so skip its cost.
        if self.track_history_loss or self.track_saves or (self.lineage and carries(self.lineage, args, kwargs)):
            self._guard(self._after_op, func, args, kwargs, out)
        return out

    def _guard(self, method, *args):
        self.busy = True
        try:
            method(*args)
        except Exception as err:  # the tracer must never break the program it watches
            if len(self.errors) < 5:
                self.errors.append(f"{type(err).__name__}: {err}")
        finally:
            self.busy = False

    def _after_op(self, func, args, kwargs, out):
        inherited: dict = {}
        upstream_of_lost = None
        for t in tensors_in(args, kwargs):
            entry = self.lineage.get(id(t))
            if entry is not None and entry[0]() is t:
                merge(inherited, entry[1])
        if self.track_history_loss:
            outs = [o for o in outputs(out)]
            if outs and not any(o.requires_grad for o in outs):
                # History lost here (no_grad, a comparison, argmax): remember what influenced it.
                given = list(tensors_in(args, kwargs))
                sources = [t for t in given if t.requires_grad]
                if sources:
                    upstream_of_lost = {self.key(leaf) for leaf in record.leaves_of(sources)}
                # (a parameter an optimizer holds, switched off: a LoRA adapter loaded for
                # inference, then trained, its loss switched on; kept apart, as a frozen backbone
                # handed to the optimizer whole is no evidence against a cut)
                frozen = [t for t in given if not t.requires_grad and id(t) in self.held] if self.held else []
                if frozen:
                    merge(inherited, {FROZEN_HELD: frozenset(self.key(t) for t in frozen)})
        if upstream_of_lost:
            merge(inherited, {NOGRAD: frozenset(upstream_of_lost)})
        if inherited:
            tagged = False
            for o in outputs(out):
                self.tag(o, inherited)
                tagged = True
            if func is torch.Tensor.__setitem__ and args and isinstance(args[0], torch.Tensor):
                # `states[i, a:b] = frames.detach()`: the tensor written into (and the tensor it is
                # a view of) now holds the values; what they were cut from influences its results
                target = args[0]
                while target is not None:
                    self.tag(target, inherited)
                    target = target._base
                tagged = True
            if not tagged and out is not None and type(out) is not bool:
                # `.item()`, `.tolist()`, `.numpy()`: the values leave the record as Python
                # numbers or an array, where the run cannot follow them
                for fid in inherited:
                    found = self.evidence.get(fid) if type(fid) is int else None
                    if found is not None:
                        found.escaped = True
        if self.track_saves:
            for o in outputs(out):
                node = o.grad_fn
                if node is not None and "gradlint_line" not in node.metadata:
                    node.metadata["gradlint_path"], node.metadata["gradlint_line"] = self.user_place()

    # ---- probes (called from the instrumented code) -----------------------------------------

    def b(self, fid, value):
        """Before the flagged operation: record what it reads or edits."""
        self._guard(self._before, fid, value, sys._getframe(1))
        return value

    def a(self, fid, value):
        """After the flagged operation: hand its result the lineage the b-probes recorded."""
        self._guard(self._after, fid, value, sys._getframe(1))
        return value

    def s(self, fid, thunk):
        """Before a statement that edits a tensor in place (``x += y``, ``x[i] = y``)."""
        try:
            value = thunk()
        except Exception:  # the statement itself will raise, or defines the name
            return None
        self._guard(self._before, fid, value, sys._getframe(1))
        return None

    # torch.compile must not trace the probes: it runs them as they are, between graphs.
    b = torch.compiler.disable(b)
    a = torch.compiler.disable(a)
    s = torch.compiler.disable(s)

    def _before(self, fid, value, frame):
        evidence = self.evidence.get(fid)
        if evidence is None:
            return
        evidence.runs += 1
        kinds = evidence.kinds
        if "rebound" in kinds:
            # (the module a name held, or a parameter an attribute held: `self.linear.weight`
            # bound anew at every forward)
            held = list(value.parameters()) if isinstance(value, torch.nn.Module) else \
                [value] if isinstance(value, torch.Tensor) and value.is_leaf else []
            tracked = {id(p) for p, _, _ in evidence.rebound}
            evidence.rebound += [(p, None if p.grad is None else p.grad.detach().clone(), self.backwards)
                                 for p in held if id(p) in self.held and id(p) not in tracked]
            return
        if "edits" in kinds:
            self._edit(evidence, value, frame)
            return
        if "upstream" not in kinds:
            return
        tensors = list(flat_tensors(value))
        if not tensors:
            evidence.opaque = evidence.opaque or value is not None
            return
        # A switched tensor is tagged here, at each run: its upstream cannot be sampled.
        if evidence.runs > SAMPLE_RUNS and evidence.runs % 64 and "switched" not in kinds:
            # A site's upstream is learnt from its first runs (then every 64th): walking the
            # record at every step of a long loop would cost more than it could teach.
            evidence.pending = evidence.pending if "pooled" in kinds else set(evidence.last)
            return
        keys = set()
        for t in tensors:
            if t.requires_grad:
                for leaf, uses in record.leaf_uses([t]).values():
                    key = self.key(leaf, frame)
                    keys.add(key)
                    evidence.uses.setdefault(key, set()).update(uses)
            elif t.is_floating_point() or t.is_complex() or "history_loss" in kinds:
                # (token ids `torch.multinomial` drew, an argmax's indices: integers never carry
                # history, so a `.detach()` or `.data` of them cuts nothing; values pulled out of
                # them and rebuilt, a BLEU loss of argmax tokens, still came from the model)
                keys |= self.lineage_of(t).get(NOGRAD, set())
                if "switched" in kinds:
                    keys |= self.lineage_of(t).get(FROZEN_HELD, set())
        for key in keys:
            self.name(key, frame)
        if "pooled" in kinds:
            evidence.pending |= keys  # many .item() calls can feed one rebuilt number
        else:
            evidence.pending = keys
        evidence.last = keys
        evidence.upstream |= keys
        if "switched" in kinds and isinstance(value, torch.Tensor) and (
                value.grad_fn is None or "detached_in_place" in kinds):
            # requires_grad_ switches the flag on this very tensor: it carries the lineage on
            # (also read before a `detach_()` that makes it that leaf in place).
            self.tag(value, {fid: frozenset(keys)})

    def _after(self, fid, value, frame):
        evidence = self.evidence.get(fid)
        if evidence is None:
            return
        if "edits" in evidence.kinds:  # an in-place module: watch what it is given
            if isinstance(value, torch.nn.Module):
                self._watch_module(value, evidence)  # (it runs when it is called, not when built)
            else:
                evidence.runs += 1
            return
        if "upstream" not in evidence.kinds:
            return
        if isinstance(value, torch.Tensor):
            self.tag(value, {fid: frozenset(evidence.pending)})
        elif isinstance(value, (list, tuple, dict)):
            # (a dict's values: `model.state_dict()`'s detached copies)
            for item in value.values() if isinstance(value, dict) else value:
                if isinstance(item, torch.Tensor):
                    self.tag(item, {fid: frozenset(evidence.pending)})
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and evidence.pending:
            # `float(penalty)`: a number made of leaves' values, which the run cannot follow into
            # the tensor op that takes it
            evidence.number = True

    def _watch_module(self, module, evidence) -> None:
        """Record what an in-place module is given, through one global forward pre-hook: a hook
        registered on the module itself would travel with it (``torch.save(model)`` could not
        pickle it) and show in its ``_forward_pre_hooks``. Removed when the mode exits."""
        if self._module_hook is None:
            watched, tracer = self._watched, self

            def pre_hook(module, inputs):
                entry = watched.get(id(module))
                if entry is not None and entry[0]() is module:
                    for f in entry[1]:
                        f.runs += 1
                        if inputs and isinstance(inputs[0], torch.Tensor):
                            tracer._guard(tracer._edit, f, inputs[0])
            self._module_hook = torch.nn.modules.module.register_module_forward_pre_hook(pre_hook)
        entry = self._watched.get(id(module))
        if entry is None or entry[0]() is not module:
            entry = self._watched[id(module)] = (weakref.ref(module), [])
        if not any(f is evidence for f in entry[1]):
            entry[1].append(evidence)

    def __exit__(self, exc_type, exc_val, exc_tb):
        if self._module_hook is not None:
            self._module_hook.remove()
            self._module_hook = None
        return super().__exit__(exc_type, exc_val, exc_tb)

    def _edit(self, evidence, value, frame=None):
        finding = evidence.finding
        if isinstance(value, torch.Tensor):
            tensors = [(value, f"`{finding['tensor']}`" if finding.get("tensor") else "the edited tensor")]
        elif hasattr(value, "param_groups"):  # an optimizer about to step
            params = [p for group in value.param_groups for p in group["params"]][:2000]
            tensors = [(p, "") for p in params if isinstance(p, torch.Tensor)]
        elif isinstance(value, torch.nn.Module):  # a module whose weights are about to be copied into
            tensors = [(p, "") for p in list(value.parameters())[:2000]]
        else:
            return
        clock = _clock()
        for t, label in tensors:
            if len(evidence.edits) >= 256:
                evidence.edits.pop(0)
            if not label:
                label = self.shown(self.key(t, frame))
            sizes = {t.numel()} | ({t._base.numel()} if t._base is not None else set())
            try:
                storage = t.untyped_storage().data_ptr()
            except (RuntimeError, NotImplementedError):
                storage = 0
            evidence.edits.append(SeenEdit(weakref.ref(t), frozenset(sizes), storage, t._version, clock,
                                      self.backwards, label))

    # ---- optimizers ------------------------------------------------------------------------------

    def watch_optimizers(self):
        """Learn which leaves an optimizer holds (``optimizers.watch``). Returns a function that
        undoes it."""
        return optimizers.watch(self)

    @contextlib.contextmanager
    def watch_optimizers_ctx(self):
        """``watch_optimizers`` as a ``with`` block."""
        undo = self.watch_optimizers()
        try:
            yield
        finally:
            undo()

    # ---- verdicts -------------------------------------------------------------------------------

    def verdicts(self) -> dict[int, dict]:
        """fid -> {"status", "evidence"[, "graph"]}: each finding decided by its rule's module."""
        from gradlint.checks import BY_CODE

        out = {}
        for fid, evidence in self.evidence.items():
            try:
                status, said = BY_CODE[evidence.finding["code"]].decide(self, evidence)
            except Exception as err:
                status, said = "error", f"gradlint failed while deciding: {type(err).__name__}: {err}"
            if self.raised is not None and status in ("confirmed", "dismissed", "inconclusive") \
                    and "raised" not in said:
                # (a verdict read from a run that stopped early: the user sees why it stopped)
                from gradlint.dynamic.verdicts import raised_at

                line = raised_at(self, self.raised)
                message = _first_words(str(self.raised).splitlines()[0]) if str(self.raised) else ""
                said += (f"; the program then raised {type(self.raised).__name__}"
                         + (f" at line {line}" if line else "") + (f": {message}" if message else ""))
            verdict = {"status": status, "evidence": said}
            if evidence.graph is not None and status in ("confirmed", "dismissed"):
                verdict["graph"] = evidence.graph
            out[fid] = verdict
        return out


def _first_words(text: str, most: int = 160) -> str:
    """``text`` cut to at most ``most`` characters at a word's end, marked where it was cut."""
    if len(text) <= most:
        return text
    cut = text[:most].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + " …"


def _clock() -> int:
    """Autograd's sequence number now: nodes recorded later number higher."""
    with torch.enable_grad():
        probe = torch.zeros((), requires_grad=True) * 1
    return probe.grad_fn._sequence_nr()

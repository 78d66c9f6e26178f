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

PyTorch: https://pytorch.org/docs/stable/notes/extending.html#extending-all-torch-api-with-modes
"""
from __future__ import annotations

import contextlib
import os
import sys
import weakref
from dataclasses import dataclass, field

import torch
from torch.overrides import TorchFunctionMode

from gradlint.dynamic import record

NOGRAD = -1  # lineage key: leaves that influenced a value computed without history
WALK_LIMIT = 400  # backward calls whose records are walked; later ones only count
COUNT_LIMIT = 60  # backward calls per GL004 site whose records are counted
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


@dataclass
class Edit:
    """An in-place edit a probe saw about to happen."""

    tensor: weakref.ref
    sizes: frozenset  # numel of the tensor and of its base: a saved view of it may be transposed
    storage: int  # data_ptr of its storage: a `.data` alias dies at once, its memory does not
    version: int  # before the edit
    clock: int  # autograd's sequence number then: nodes numbered below were recorded before it
    after_backwards: int  # backward calls before it
    label: str  # how the evidence names the edited tensor


@dataclass
class Leaf:
    ref: weakref.ref
    name: str
    version: int  # when first seen
    looked: bool = False  # the frames were searched for a name (once is enough)


@dataclass
class Finding:
    """What the run showed about one finding."""

    site: dict
    runs: int = 0
    pending: set = field(default_factory=set)  # leaf keys a b-probe saw upstream, for the next a-probe
    last: set = field(default_factory=set)  # what the last walked b-probe saw
    upstream: set = field(default_factory=set)  # every leaf key ever seen upstream
    uses: dict = field(default_factory=dict)  # leaf key -> how the record before the cut used it
    influenced: dict = field(default_factory=dict)  # leaf key -> (root, where, reached from it)
    roots: int = 0  # backward calls whose roots carried this finding's lineage
    counts: list = field(default_factory=list)  # GL004: node count at each backward of the site
    same_root: int = 0  # GL004: backward calls that started from the previous call's record
    heads: list = field(default_factory=list)  # GL004: the previous call's root nodes (kept alive)
    root: str = "the loss"  # GL004: the flagged call's root, as the evidence names it
    edits: list = field(default_factory=list)  # GL005
    stale: str = ""  # GL005: evidence of a saved tensor whose version the edit moved
    checked: bool = False  # GL005: a later backward read a record made before the edit
    graph: dict | None = None


class Tracer(TorchFunctionMode):
    """Watches one run. ``files``: the real paths of the instrumented modules (their frames are
    the user's); each finding is added with ``add_site`` when its module is instrumented, as a
    site dict (``code``, ``path``, ``line``, ``end_line``, ``label``, ``tensor``)."""

    def __init__(self, files: set[str], show_graph: bool = False):
        super().__init__()
        self.findings: dict[int, Finding] = {}
        self.files = set(files)
        self.show_graph = show_graph
        self.track_history_loss = False  # a GL002/GL003 site: follow values whose history was lost
        self.track_saves = False  # a GL005 site: note where each node of the record was made
        self.gl004: list[tuple[int, Finding]] = []
        self.busy = False
        self.lineage: dict[int, tuple[weakref.ref, dict]] = {}
        self.leaves: dict[int, Leaf] = {}  # key -> leaf
        self.key_of: dict[int, int] = {}  # id(tensor) -> key
        self.next_key = 0
        self.reached: set[int] = set()  # keys of leaves some backward reached
        self.reached_uses: dict[int, set[str]] = {}  # key -> how those records used it (leaf_uses)
        self.backwards = 0
        self.optimizers = 0
        self.held: set[int] = set()  # ids of tensors an optimizer holds
        self.held_refs: list = []  # ... kept alive, so that their ids stay theirs
        self.asked: set[int] = set()  # ids of tensors autograd.grad was asked for
        self.grad_read: set[int] = set()
        self.module_names: dict[int, dict[int, str]] = {}
        self.errors: list[str] = []
        self.raised: BaseException | None = None
        self.processes = 0  # processes the program started (forked, spawned): not followed
        self._user: dict[str, bool] = {}
        self.cwd = os.getcwd() + os.sep
        self.prefixes = tuple({sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.dirname(__file__))})
        self._watched: dict[int, tuple[weakref.ref, list]] = {}  # id(in-place module) -> (ref, findings)
        self._module_hook = None  # the global forward pre-hook that watches them

    def add_site(self, fid: int, site: dict) -> None:
        """A finding whose module was just instrumented (modules are instrumented on import)."""
        finding = self.findings[fid] = Finding(site)
        code = site["code"]
        self.track_history_loss |= code in ("GL002", "GL003")
        self.track_saves |= code == "GL005"
        if code == "GL004":
            self.gl004.append((fid, finding))

    def is_user(self, filename: str) -> bool:
        """Whether a frame of this file is the user's code: an instrumented module, or a file
        under the working directory outside any installed package."""
        known = self._user.get(filename)
        if known is None:
            known = filename in self.files or (
                filename.startswith(self.cwd) and "site-packages" not in filename
                and not filename.startswith(self.prefixes))
            self._user[filename] = known
        return known

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
            if args:
                self.grad_read.add(id(args[0]))
            return func(*args, **kwargs)
        if kind is _BACKWARD:
            self._guard(self._on_backward, func, args, kwargs)
        out = func(*args, **kwargs)
        # Most ops (an optimizer's, say) take no tensor that carries lineage: with no history
        # loss or saves to track, _after_op would do nothing for them, so skip its cost.
        if self.track_history_loss or self.track_saves or (self.lineage and _carries(self.lineage, args, kwargs)):
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
        for t in _tensors(args, kwargs):
            entry = self.lineage.get(id(t))
            if entry is not None and entry[0]() is t:
                _merge(inherited, entry[1])
        if self.track_history_loss:
            outs = [o for o in _outputs(out)]
            if outs and not any(o.requires_grad for o in outs):
                # History lost here (no_grad, a comparison, argmax): remember what influenced it.
                sources = [t for t in _tensors(args, kwargs) if t.requires_grad]
                if sources:
                    upstream_of_lost = {self.key(leaf) for leaf in record.leaves_of(sources)}
        if upstream_of_lost:
            _merge(inherited, {NOGRAD: frozenset(upstream_of_lost)})
        if inherited:
            for o in _outputs(out):
                self.tag(o, inherited)
        if self.track_saves:
            for o in _outputs(out):
                node = o.grad_fn
                if node is not None and "gradlint_line" not in node.metadata:
                    node.metadata["gradlint_line"] = self.user_line()

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
        finding = self.findings.get(fid)
        if finding is None:
            return
        finding.runs += 1
        code = finding.site["code"]
        if code == "GL005":
            self._edit(finding, value, frame)
            return
        tensors = list(_flat_tensors(value))
        if not tensors:
            return
        if finding.runs > SAMPLE_RUNS and finding.runs % 64 and code != "GL003":
            # A site's upstream is learnt from its first runs (then every 64th): walking the
            # record at every step of a long loop would cost more than it could teach.
            finding.pending = finding.pending if code == "GL002" else set(finding.last)
            return
        keys = set()
        for t in tensors:
            if t.requires_grad:
                for leaf, uses in record.leaf_uses([t]).values():
                    key = self.key(leaf, frame)
                    keys.add(key)
                    finding.uses.setdefault(key, set()).update(uses)
            else:
                keys |= self.lineage_of(t).get(NOGRAD, set())
        for key in keys:
            self.name(key, frame)
        if code == "GL002":
            finding.pending |= keys  # many .item() calls can feed one rebuilt number
        else:
            finding.pending = keys
        finding.last = keys
        finding.upstream |= keys
        if code == "GL003" and isinstance(value, torch.Tensor) and value.grad_fn is None:
            # requires_grad_ switches the flag on this very tensor: it carries the lineage on.
            self.tag(value, {fid: frozenset(keys)})

    def _after(self, fid, value, frame):
        finding = self.findings.get(fid)
        if finding is None:
            return
        if finding.site["code"] == "GL005":  # an in-place module: watch what it is given
            finding.runs += 1
            if isinstance(value, torch.nn.Module):
                self._watch_module(value, finding)
            return
        if isinstance(value, torch.Tensor):
            self.tag(value, {fid: frozenset(finding.pending)})
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, torch.Tensor):
                    self.tag(item, {fid: frozenset(finding.pending)})

    def _watch_module(self, module, finding) -> None:
        """Record what an in-place module is given, through one global forward pre-hook: a hook
        registered on the module itself would travel with it (``torch.save(model)`` could not
        pickle it) and show in its ``_forward_pre_hooks``. Removed when the mode exits."""
        if self._module_hook is None:
            watched, tracer = self._watched, self

            def pre_hook(module, inputs):
                entry = watched.get(id(module))
                if entry is not None and entry[0]() is module and inputs and isinstance(inputs[0], torch.Tensor):
                    for f in entry[1]:
                        tracer._guard(tracer._edit, f, inputs[0])
            self._module_hook = torch.nn.modules.module.register_module_forward_pre_hook(pre_hook)
        entry = self._watched.get(id(module))
        if entry is None or entry[0]() is not module:
            entry = self._watched[id(module)] = (weakref.ref(module), [])
        if not any(f is finding for f in entry[1]):
            entry[1].append(finding)

    def __exit__(self, exc_type, exc_val, exc_tb):
        if self._module_hook is not None:
            self._module_hook.remove()
            self._module_hook = None
        return super().__exit__(exc_type, exc_val, exc_tb)

    def _edit(self, finding, value, frame=None):
        site = finding.site
        if isinstance(value, torch.Tensor):
            tensors = [(value, f"`{site['tensor']}`" if site.get("tensor") else "the edited tensor")]
        elif hasattr(value, "param_groups"):  # an optimizer about to step
            params = [p for group in value.param_groups for p in group["params"]][:2000]
            tensors = [(p, "") for p in params if isinstance(p, torch.Tensor)]
        else:
            return
        clock = _clock()
        for t, label in tensors:
            if len(finding.edits) >= 256:
                finding.edits.pop(0)
            if not label:
                label = self.shown(self.key(t, frame))
            sizes = {t.numel()} | ({t._base.numel()} if t._base is not None else set())
            try:
                storage = t.untyped_storage().data_ptr()
            except (RuntimeError, NotImplementedError):
                storage = 0
            finding.edits.append(Edit(weakref.ref(t), frozenset(sizes), storage, t._version, clock,
                                      self.backwards, label))

    # ---- lineage --------------------------------------------------------------------------------

    def tag(self, t: torch.Tensor, lineage: dict) -> None:
        entry = self.lineage.get(id(t))
        if entry is not None and entry[0]() is t:
            merged = dict(entry[1])
            _merge(merged, lineage)
            self.lineage[id(t)] = (entry[0], merged)
            return
        ident = id(t)
        table = self.lineage

        def forget(_ref, ident=ident):
            current = table.get(ident)
            if current is not None and current[0] is _ref:
                del table[ident]
        self.lineage[ident] = (weakref.ref(t, forget), dict(lineage))

    def lineage_of(self, t) -> dict:
        entry = self.lineage.get(id(t))
        return entry[1] if entry is not None and entry[0]() is t else {}

    # ---- leaves and their names ------------------------------------------------------------

    def key(self, leaf: torch.Tensor, frame=None) -> int:
        known = self.key_of.get(id(leaf))
        if known is not None and self.leaves[known].ref() is leaf:
            key = known
        else:
            key = self.next_key
            self.next_key += 1
            self.key_of[id(leaf)] = key
            self.leaves[key] = Leaf(weakref.ref(leaf), "", leaf._version)
        if frame is not None:
            self.name(key, frame)
        return key

    def name(self, key: int, frame) -> None:
        leaf = self.leaves[key]
        if leaf.looked:
            return
        leaf.looked = True
        target = leaf.ref()
        if target is None:
            return
        fallback = ""
        seen = []
        for depth, f in enumerate(_user_frames(frame, self.is_user)):
            if depth > 12:
                break
            seen.append(f)
        # Outermost first: `model.layers.0.weight` where the model was built names the leaf the
        # same way at every call, where a loop's `layer.weight` would name another each time.
        for f in reversed(seen):
            for var, value in list(f.f_locals.items()):
                found = self._find(target, var, value)
                if found and var != "self":
                    leaf.name = found
                    return
                if found and not fallback:
                    fallback = found
        if not fallback:
            # A module-level parameter used inside functions (a --driver callable, a test) is a
            # global of those frames, not a local of any of them.
            for f in seen:
                if f.f_globals is f.f_locals:
                    continue
                for var, value in list(f.f_globals.items()):
                    found = "" if var.startswith("__") else self._find(target, var, value)
                    if found:
                        leaf.name = found
                        return
        leaf.name = fallback

    def _find(self, target, var: str, value) -> str:
        if value is target:
            return var
        if isinstance(value, torch.nn.Module):
            names = self.module_names.get(id(value))
            if names is None:
                names = self.module_names[id(value)] = record.parameter_names(value)
            name = names.get(id(target))
            return f"{var}.{name}" if name else ""
        if isinstance(value, (list, tuple)) and len(value) <= 64:
            for i, item in enumerate(value):
                if item is target:
                    return f"{var}[{i}]"
        return ""

    def shown(self, key: int) -> str:
        leaf = self.leaves.get(key)
        if leaf is None:
            return "a leaf"
        if leaf.name:
            return f"`{leaf.name}`"
        t = leaf.ref()
        return f"a leaf of shape {list(t.shape)}" if t is not None else "a leaf"

    def user_line(self, frame=None) -> int:
        for f in _user_frames(frame or sys._getframe(1), self.is_user):
            return f.f_lineno
        return 0

    # ---- backward --------------------------------------------------------------------------------

    def _on_backward(self, func, args, kwargs):
        self.backwards += 1
        if func is torch.autograd.grad:
            roots = _as_list(args[0] if args else kwargs.get("outputs"))
            inputs = _as_list(args[1] if len(args) > 1 else kwargs.get("inputs"))
            self.asked.update(id(t) for t in inputs if isinstance(t, torch.Tensor))
        else:
            roots = _as_list(args[0] if args else kwargs.get("tensors"))
        roots = [t for t in roots if isinstance(t, torch.Tensor)]
        frame = next(iter(_user_frames(sys._getframe(1), self.is_user)), None)
        line = frame.f_lineno if frame is not None else 0
        names = [_local_name(frame, t) for t in roots]
        root_name = f"`{names[0]}`" if names and names[0] else "the loss"
        path = frame.f_code.co_filename if frame is not None else ""

        for fid, finding in self.gl004:
            site = finding.site
            if path == site["path"] and site["line"] <= line <= site["end_line"] and len(finding.counts) < COUNT_LIMIT:
                finding.runs += 1
                count = sum(1 for _ in record.nodes(roots))
                heads = [t.grad_fn for t in roots]
                if finding.counts and len(heads) == len(finding.heads) and \
                        all(a is b and a is not None for a, b in zip(heads, finding.heads)):
                    finding.same_root += 1
                finding.heads = heads
                finding.counts.append(count)
                if self.show_graph and roots:
                    finding.graph = record.tree(roots[0], self._label)
                finding.root = root_name

        carried = {}
        for t in roots:
            _merge(carried, self.lineage_of(t))
        edits = [f for f in self.findings.values() if f.edits and not f.stale]
        if self.backwards > WALK_LIMIT and not carried and not edits:
            return  # enough seen: later walks could only add reached leaves, at a cost per step
        reachable = set()
        for leaf, uses in record.leaf_uses(roots).values():
            key = self.key(leaf, frame)
            reachable.add(key)
            self.reached_uses.setdefault(key, set()).update(uses)
        self.reached |= reachable
        for fid, keys in carried.items():
            finding = self.findings.get(fid)
            if finding is None:
                continue
            finding.roots += 1
            for key in keys:
                if key not in finding.influenced or finding.influenced[key][2]:
                    finding.influenced[key] = (root_name, self._where(line, path, finding), key in reachable)
            if self.show_graph and finding.graph is None and set(keys) - reachable:
                finding.graph = record.tree(roots[0], self._label, [self.shown(k).strip("`") for k in set(keys) - reachable])
        if edits:
            self._stale(roots, edits)

    @staticmethod
    def _where(line: int, path: str, finding) -> str:
        """``line 27``, or ``train.py line 27`` when it is not in the finding's own file."""
        if not path or path == finding.site["path"]:
            return f"line {line}"
        return f"{os.path.basename(path)} line {line}"

    def _label(self, leaf) -> str:
        key = self.key_of.get(id(leaf))
        if key is not None and self.leaves[key].ref() is leaf:
            return self.shown(key).strip("`")
        return f"leaf {list(leaf.shape)}"

    def _stale(self, roots, findings):
        latest = {id(f): max(e.clock for e in f.edits) for f in findings}
        for node in record.nodes(roots, limit=20000):
            if getattr(node, "variable", None) is None:
                seq = node._sequence_nr()
                for finding in findings:
                    if seq < latest[id(finding)]:
                        finding.checked = True  # this backward read a record made before the edit
            for attr, value in record.saved_tensors(node):
                for finding in findings:
                    if finding.stale:
                        continue
                    edit = self._edit_behind(finding, node, value)
                    if edit is None:
                        continue
                    if isinstance(value, RuntimeError):
                        _, now, then = record.stale(value)
                        finding.stale = self._say_stale(finding, node, then, now, edit)
                        remark = f"saved {edit.label.strip('`')} at version {then}; it is at {now} now"
                    else:
                        finding.stale = self._say_stale(finding, node, None, None, edit)
                        remark = f"saved {edit.label.strip('`')}, then edited through .data"
                    if self.show_graph:
                        finding.graph = record.tree(roots[0], self._label, note={id(node): remark})

    @staticmethod
    def _edit_behind(finding, node, value):
        """The edit of this finding that made ``value`` (a saved tensor, or the error reading
        it) stale, if any."""
        if isinstance(value, RuntimeError):
            parsed = record.stale(value)
            if parsed is None:
                return None
            shape, now, then = parsed
            numel = 1
            for d in shape:
                numel *= d
            for edit in reversed(finding.edits):
                t = edit.tensor()
                current = t._version if t is not None else now
                if numel in edit.sizes and then <= edit.version < current == now:
                    return edit
            return None
        try:
            storage = value.untyped_storage().data_ptr()
        except (RuntimeError, NotImplementedError):
            return None
        for edit in reversed(finding.edits):
            # Saved before the edit, same memory, and still readable: the version counter never
            # saw the edit (it went through .data), so backward uses the edited values.
            if edit.storage and edit.storage == storage and node._sequence_nr() < edit.clock:
                return edit
        return None

    def _say_stale(self, finding, node, then, now, edit) -> str:
        site = finding.site
        saver = type(node).__name__
        saved_line = node.metadata.get("gradlint_line") if hasattr(node, "metadata") else None
        where = f" (line {saved_line})" if saved_line else ""
        if then is None:
            return (f"{edit.label} was saved by {saver}{where} before `{site['label']}` (line {site['line']}) "
                    f"edited it through .data, which the version counter does not see: backward used the edited values")
        return (f"{edit.label} was saved by {saver}{where} at version {then}; `{site['label']}` "
                f"(line {site['line']}) moved it to version {now}")

    # ---- optimizers ------------------------------------------------------------------------------

    def watch_optimizers(self):
        """Wrap ``Optimizer.add_param_group`` (which ``__init__`` also calls) to learn which
        leaves an optimizer holds. Returns a function that undoes it."""
        original = torch.optim.Optimizer.add_param_group
        tracer = self

        seen = weakref.WeakSet()  # optimizers met; nothing is written onto the user's objects

        def add_param_group(opt, param_group):
            result = original(opt, param_group)
            try:
                if opt not in seen:
                    seen.add(opt)
                    tracer.optimizers += 1
                for p in opt.param_groups[-1]["params"]:  # the group just added
                    if id(p) not in tracer.held:
                        tracer.held.add(id(p))
                        tracer.held_refs.append(p)
            except Exception:
                pass
            return result

        torch.optim.Optimizer.add_param_group = add_param_group
        paused: list = []

        def before_step(opt, args, kwargs):
            # An optimizer's arithmetic is most of the torch calls of a small training step and
            # none of the evidence (a step is seen by its probe and by the versions it moves), so
            # the mode steps aside for it; not for a closure (LBFGS), which runs backward().
            depth = torch._C._len_torch_function_stack()
            closure = any(callable(a) for a in args[1:]) or kwargs.get("closure") is not None  # args[0]: opt
            if closure or not depth \
                    or torch._C._get_function_stack_at(depth - 1) is not tracer:
                paused.append(None)
            else:
                paused.append(torch._C._pop_torch_function_stack())

        def after_step(opt, args, kwargs):
            mode = paused.pop() if paused else None
            if mode is not None:
                torch._C._push_on_torch_function_stack(mode)

        from torch.optim.optimizer import register_optimizer_step_post_hook, register_optimizer_step_pre_hook
        hooks = [register_optimizer_step_pre_hook(before_step), register_optimizer_step_post_hook(after_step)]

        def undo():
            torch.optim.Optimizer.add_param_group = original
            for hook in hooks:
                hook.remove()
        return undo

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
        out = {}
        for fid, finding in self.findings.items():
            try:
                status, evidence = self._decide(finding)
            except Exception as err:
                status, evidence = "error", f"gradlint failed while deciding: {type(err).__name__}: {err}"
            verdict = {"status": status, "evidence": evidence}
            if finding.graph is not None and status in ("confirmed", "dismissed"):
                verdict["graph"] = finding.graph
            out[fid] = verdict
        return out

    def _decide(self, finding: Finding) -> tuple[str, str]:
        code = finding.site["code"]
        if code == "GL004":
            return self._decide_growth(finding)
        if code == "GL005":
            return self._decide_edit(finding)
        return self._decide_reach(finding)

    def _intent(self, key: int, lenient: bool = False) -> str:
        """Why this leaf should have received a gradient, or "" if nothing says it should.
        ``lenient``: in a run without optimizers, requiring grad is reason enough (a value
        rebuilt or switched to require grad is never a deliberate stop-gradient)."""
        leaf = self.leaves[key]
        t = leaf.ref()
        ident = id(t) if t is not None else None
        if ident in self.held:
            return "an optimizer holds it"
        if self.optimizers:
            return ""
        if ident in self.asked:
            return "the program asks autograd.grad for its gradient"
        if t is not None and t._version != leaf.version:
            return "the program updates it"
        if ident in self.grad_read:
            return "the program reads its .grad"
        if lenient and t is not None and t.requires_grad:
            return "it requires grad"
        return ""

    def _used_otherwise(self, finding: Finding, key: int) -> bool:
        """A GL001 leaf that backward reaches, but never the way the record before the cut used
        it: a weight-decay term (``PowBackward0`` on the weight) keeps the weight reachable while
        every use of it in the forward pass is cut. A stop-gradient on one branch (SimSiam) leaves
        the same use (``TBackward0``, ``ConvolutionBackward0``) reached through the other branch."""
        before = finding.uses.get(key)
        return bool(finding.site["code"] == "GL001" and before and key in self.reached
                    and not before & self.reached_uses.get(key, set()))

    def _elsewhere(self) -> str:
        """For a site that never ran: the program started processes, and what they ran is not
        followed (``mp.spawn`` workers, a forked ``Process``)."""
        if not self.processes:
            return ""
        return (f" in the driver's process (the program started {self.processes} other process"
                f"{'es' if self.processes != 1 else ''}; code they run is not followed)")

    def _raised_at(self, err: BaseException) -> int:
        """The last line of the user's code in the traceback of ``err``."""
        line, tb = 0, err.__traceback__
        while tb is not None:
            if self.is_user(tb.tb_frame.f_code.co_filename):
                line = tb.tb_lineno
            tb = tb.tb_next
        return line

    def _decide_reach(self, finding: Finding) -> tuple[str, str]:
        site = finding.site
        code = site["code"]
        at = f"`{site['label']}` (line {site['line']})"
        raised = self.raised
        if code == "GL003" and isinstance(raised, RuntimeError) and "inference tensor" in str(raised) \
                and site["line"] <= self._raised_at(raised) <= site["end_line"]:
            return "confirmed", (f"{at} raised RuntimeError: {str(raised).splitlines()[0]} — the tensor was "
                                 "made under inference_mode and has no history")
        if not finding.runs:
            return "not-reached", f"{at} never ran{self._elsewhere()}"
        if not finding.upstream:
            what = {"GL001": "the tensor it cuts", "GL002": "the values it rebuilds",
                    "GL003": "the tensor"}[code]
            return "dismissed", f"no leaf that requires grad influenced {what}: there was no gradient to lose"
        if not finding.roots:
            if not self.backwards:
                return "inconclusive", f"{at} ran, but no backward() or autograd.grad() followed"
            return "dismissed", (f"what {at} produced never reached a backward root "
                                 f"({self.backwards} backward call{'s' if self.backwards != 1 else ''} ran without it)")
        # A rebuilt or switched value takes part in the loss as if trained through, so the path it
        # cuts is missing from the gradient even where the leaf gets one by another path.
        # A .detach() beside an attached path of the same leaves is a stop-gradient (SimSiam).
        rebuilt = code in ("GL002", "GL003")
        starved = [k for k in finding.influenced if rebuilt or k not in self.reached or self._used_otherwise(finding, k)]
        meant = [(k, self._intent(k, lenient=rebuilt)) for k in sorted(starved, key=self.shown)]
        meant = [(k, why) for k, why in meant if why]
        if meant:
            unreached = [(k, why) for k, why in meant if k not in self.reached]
            key, why = (unreached or meant)[0]
            root, where, _ = finding.influenced[key]
            rest = sorted(set(self.shown(k) for k, _ in meant) - {self.shown(key)})
            listed = rest if len(rest) <= 3 else rest[:2]
            others = (f", {', '.join(listed)}" + (f" and {len(rest) - 2} more" if len(rest) > 3 else "")) if rest else ""
            if unreached:
                return "confirmed", (f"{self.shown(key)}{others} influenced {root} ({where}) but no backward "
                                     f"reached it: the path stops at {at}; {why}")
            other = sorted(self.reached_uses.get(key, ()))
            how = f" (its gradient comes only through {', '.join(other[:2])}, another use of it)" if \
                self._used_otherwise(finding, key) else " (it reaches the leaf only by another path)"
            return "confirmed", (f"{self.shown(key)}{others} influenced {root} ({where}) through {at}, and its "
                                 f"gradient leaves that path out{how}; {why}")
        if starved:
            names = ", ".join(self.shown(k) for k in starved[:3])
            why = "no optimizer of the run holds" if self.optimizers else "the program never updates or reads the gradient of"
            return "dismissed", f"{names} got no gradient through {at}, but {why} them: left out on purpose"
        names = ", ".join(self.shown(k) for k in sorted(finding.upstream)[:3])
        return "dismissed", f"every leaf upstream of {at} ({names}) received a gradient through another path"

    def _decide_growth(self, finding: Finding) -> tuple[str, str]:
        site = finding.site
        counts = finding.counts
        if not counts:
            return "not-reached", f"the backward call at line {site['line']} never ran{self._elsewhere()}"
        root = finding.root
        if finding.same_root:
            return "confirmed", (f"{finding.same_root + 1} backward calls at line {site['line']} started from the same "
                                 f"record of {root}: its gradients were added again each time")
        if len(counts) < 2:
            return "inconclusive", f"the backward call at line {site['line']} ran once: nothing to compare"
        if all(b > a for a, b in zip(counts, counts[1:])):
            return "confirmed", (f"the record of {root} grew from {counts[0]} to {counts[-1]} nodes "
                                 f"over {len(counts)} backward calls (line {site['line']})")
        if counts[-1] > counts[0] and len(set(counts)) > 2:
            return "confirmed", (f"the record of {root} grew from {counts[0]} to {counts[-1]} nodes "
                                 f"over {len(counts)} backward calls (line {site['line']})")
        return "dismissed", (f"the record of {root} stayed at {max(counts)} nodes or fewer over {len(counts)} "
                             f"backward calls (line {site['line']}): no iteration's graph was carried into the next")

    def _decide_edit(self, finding: Finding) -> tuple[str, str]:
        site = finding.site
        if finding.stale:
            return "confirmed", finding.stale
        if not finding.edits and not finding.runs:
            return "not-reached", f"`{site['label']}` (line {site['line']}) never ran{self._elsewhere()}"
        raised = self.raised
        if isinstance(raised, RuntimeError) and self._edit_behind(finding, None, raised) is not None:
            shape = list(record.stale(raised)[0])
            return "confirmed", (f"backward() raised PyTorch's \"modified by an inplace operation\" for a tensor "
                                 f"of shape {shape}, the one `{site['label']}` (line {site['line']}) edits")
        if not finding.edits:
            return "inconclusive", f"`{site['label']}` (line {site['line']}) ran, but edited no tensor"
        last = finding.edits[-1]
        if last.after_backwards >= self.backwards:
            return "inconclusive", f"`{site['label']}` (line {site['line']}) ran, but no backward() followed it"
        if not finding.checked:
            return "inconclusive", (f"`{site['label']}` (line {site['line']}) ran, but no later backward() read a "
                                    "record made before it, so nothing could have used what it changed")
        tensor = last.label if len({e.label for e in finding.edits}) == 1 else "the tensors it edits"
        return "dismissed", (f"{tensor} changed version at line {site['line']}, and no tensor saved for backward "
                             f"in the records read afterwards held it: the edit cannot change a gradient")


def _clock() -> int:
    """Autograd's sequence number now: nodes recorded later number higher."""
    with torch.enable_grad():
        probe = torch.zeros((), requires_grad=True) * 1
    return probe.grad_fn._sequence_nr()


def _flat_tensors(value, depth: int = 0):
    """The tensors in a value a probe saw: a tensor, or lists/tuples of them (``torch.tensor(losses)``)."""
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, (list, tuple)) and depth < 3:
        for item in value[:10000]:
            yield from _flat_tensors(item, depth + 1)


def _merge(into: dict, lineage: dict) -> None:
    for fid, keys in lineage.items():
        current = into.get(fid)
        into[fid] = keys if current is None else (current | keys)


def _tensors(args, kwargs):
    for a in args:
        if isinstance(a, torch.Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            for b in a:
                if isinstance(b, torch.Tensor):
                    yield b
    for a in kwargs.values():
        if isinstance(a, torch.Tensor):
            yield a


def _carries(lineage: dict, args, kwargs) -> bool:
    """Whether an argument (or an item of a list/tuple argument) has a lineage entry. Looked
    up by id first, so that most calls cost a few dict lookups and no isinstance checks."""
    for a in args:
        entry = lineage.get(id(a))
        if entry is not None and entry[0]() is a:
            return True
        if type(a) in (list, tuple):
            for b in a:
                entry = lineage.get(id(b))
                if entry is not None and entry[0]() is b:
                    return True
    for a in kwargs.values():
        entry = lineage.get(id(a))
        if entry is not None and entry[0]() is a:
            return True
    return False


def _outputs(out):
    if isinstance(out, torch.Tensor):
        yield out
    elif isinstance(out, (list, tuple)):
        for o in out:
            if isinstance(o, torch.Tensor):
                yield o


def _as_list(value) -> list:
    if value is None:
        return []
    if isinstance(value, torch.Tensor):
        return [value]
    return list(value)


def _user_frames(frame, is_user):
    while frame is not None:
        # A program's own TorchFunctionMode sits between its code and ours: not where it called.
        if is_user(frame.f_code.co_filename) and frame.f_code.co_name != "__torch_function__":
            yield frame
        frame = frame.f_back


def _local_name(frame, t) -> str:
    if frame is None:
        return ""
    for var, value in frame.f_locals.items():
        if value is t:
            return var
    return ""


"""What each backward call shows: read at ``backward()`` / ``autograd.backward()`` /
``autograd.grad()``, before autograd frees the record.

The leaves the roots reach (and how the record uses each), the lineage the roots carry, the
nodes of the record of a finding's backward call ("backward_site"), and whether a saved tensor's version moved since an edit a
probe saw (PyTorch's own version check reports the stale ones; the edit's version, memory and
autograd's sequence number say whose edit it was). A mixin of ``tracer.Tracer``.
"""
from __future__ import annotations

import os
import sys

import torch

from gradlint.dynamic import record
from gradlint.dynamic.lineage import merge
from gradlint.dynamic.naming import local_name, user_frames

WALK_LIMIT = 400  # backward calls whose records are walked; later ones only count
COUNT_LIMIT = 60  # backward calls per "backward_site" finding whose records are counted


class BackwardEvidence:
    """``_on_backward``, called by the mode before each backward call runs."""

    def _on_backward(self, func, args, kwargs):
        self.backwards += 1
        if func is torch.autograd.grad:
            roots = as_list(args[0] if args else kwargs.get("outputs"))
            inputs = as_list(args[1] if len(args) > 1 else kwargs.get("inputs"))
            self.asked.update(id(t) for t in inputs if isinstance(t, torch.Tensor))
        else:
            roots = as_list(args[0] if args else kwargs.get("tensors"))
        roots = [t for t in roots if isinstance(t, torch.Tensor)]
        if roots and all(t.grad_fn is None for t in roots):
            self.leaf_backwards += 1  # (a loss rebuilt as a new leaf: its backward reaches nothing)
        frame = next(iter(user_frames(sys._getframe(1), self.is_user)), None)
        if frame is None:
            # (a backward in a driver outside the working directory, `--driver`: its own line)
            frame = next(iter(user_frames(sys._getframe(1), lambda name: "site-packages" not in name
                                          and not name.startswith(self.prefixes) and not name.startswith("<"))), None)
        line = frame.f_lineno if frame is not None else 0
        names = [local_name(frame, t) for t in roots]
        root_name = f"`{names[0]}`" if names and names[0] else "the loss"
        path = frame.f_code.co_filename if frame is not None else ""

        for fid, evidence in self.backward_sites:
            finding = evidence.finding
            if path == finding["path"] and finding["line"] <= line <= finding["end_line"] and len(evidence.counts) < COUNT_LIMIT:
                evidence.runs += 1
                walked = list(record.nodes(roots))
                count = len(walked)
                heads = [t.grad_fn for t in roots]
                if evidence.counts and len(heads) == len(evidence.heads) and \
                        all(a is b and a is not None for a, b in zip(heads, evidence.heads)):
                    evidence.same_root += 1
                else:
                    # (a new root whose record reaches nodes the previous call's walked: a
                    # tensor recorded before the loop, backpropagated again; `AccumulateGrad`
                    # nodes are the leaves' own, shared by every call)
                    inner = [n for n in walked if getattr(n, "variable", None) is None]
                    before = {id(n) for n in evidence.walked}
                    if before and any(id(n) in before for n in inner):
                        evidence.shared += 1
                    evidence.walked = inner  # (held: their ids stay theirs until the next call)
                evidence.heads = heads
                evidence.counts.append(count)
                if "kept_state" in evidence.kinds and frame is not None:
                    evidence.kept.append(_kept_nodes(frame, finding.get("state") or ()))
                if self.show_graph and roots:
                    evidence.graph = record.tree(roots[0], self._label)
                evidence.root = root_name

        carried = {}
        for t in roots:
            merge(carried, self.lineage_of(t))
        edits = [f for f in self.evidence.values() if f.edits and not f.stale]
        if self.backwards > WALK_LIMIT and not carried and not edits:
            return  # enough seen: later walks could only add reached leaves, at a cost per step
        reachable = set()
        for leaf, uses in record.leaf_uses(roots).values():
            key = self.key(leaf, frame)
            reachable.add(key)
            self.reached_uses.setdefault(key, set()).update(uses)
            spans = self.reached_at.setdefault(key, [])
            if spans and spans[-1][1] == self.backwards - 1:
                spans[-1] = (spans[-1][0], self.backwards)  # most leaves are reached by every call
            else:
                spans.append((self.backwards, self.backwards))
        self.reached |= reachable
        for fid, keys in carried.items():
            evidence = self.evidence.get(fid)
            if evidence is None:
                continue
            evidence.carried_backwards += 1
            evidence.carried_span = (evidence.carried_span or (self.backwards,))[:1] + (self.backwards,)
            for key in keys:
                if key not in evidence.influenced or evidence.influenced[key][2]:
                    evidence.influenced[key] = (root_name, self._where(line, path, evidence), key in reachable)
            if self.show_graph and evidence.graph is None and set(keys) - reachable:
                evidence.graph = record.tree(roots[0], self._label, [self.shown(k).strip("`") for k in set(keys) - reachable])
        if edits:
            self._stale(roots, edits)

    @staticmethod
    def _where(line: int, path: str, evidence) -> str:
        """``line 27``, or ``train.py line 27`` when it is not in the finding's own file."""
        if not path or path == evidence.finding["path"]:
            return f"line {line}"
        return f"{os.path.basename(path)} line {line}"

    def _stale(self, roots, watched):
        latest = {id(f): max(e.clock for e in f.edits) for f in watched}
        for node in record.nodes(roots, limit=20000):
            if getattr(node, "variable", None) is None:
                seq = node._sequence_nr()
                for evidence in watched:
                    if seq < latest[id(evidence)]:
                        evidence.checked = True  # this backward read a record made before the edit
            for attr, value in record.saved_tensors(node):
                for evidence in watched:
                    if evidence.stale:
                        continue
                    edit = edit_behind(evidence, node, value)
                    if edit is None:
                        continue
                    if isinstance(value, RuntimeError):
                        _, now, then = record.stale(value)
                        evidence.stale = self._say_stale(evidence, node, then, now, edit)
                        remark = f"saved {edit.label.strip('`')} at version {then}; it is at {now} now"
                    else:
                        evidence.stale = self._say_stale(evidence, node, None, None, edit)
                        remark = f"saved {edit.label.strip('`')}, then edited through .data"
                    if self.show_graph:
                        evidence.graph = record.tree(roots[0], self._label, note={id(node): remark})

    def _say_stale(self, evidence, node, then, now, edit) -> str:
        finding = evidence.finding
        saver = type(node).__name__
        saved_line = node.metadata.get("gradlint_line") if hasattr(node, "metadata") else None
        saved_path = node.metadata.get("gradlint_path", "") if hasattr(node, "metadata") else ""
        where = f" ({self._where(saved_line, saved_path, evidence)})" if saved_line else ""
        if then is None and isinstance(node, torch.autograd.function.BackwardCFunction):
            return (f"{edit.label} was handed to save_for_backward by the custom Function {saver}, whose forward "
                    f"edited it in place at `{finding['label']}` ({finding['where']}) before its saved tensors "
                    f"were packed: backward used the edited values")
        if then is None:
            return (f"{edit.label} was saved by {saver}{where} before `{finding['label']}` ({finding['where']}) "
                    f"edited it through .data, which the version counter does not see: backward used the edited values")
        return (f"{edit.label} was saved by {saver}{where} at version {then}; `{finding['label']}` "
                f"({finding['where']}) moved it to version {now}")


def _kept_nodes(frame, names) -> int | None:
    """The nodes of the records the tensors ``names`` (`self.running_loss`) hold in ``frame``
    keep, read from the objects' own ``__dict__`` (no property of the user's runs); None where
    none of them holds a tensor with history."""
    total, found = 0, False
    for name in names:
        head, *attrs = name.split(".")
        value = frame.f_locals.get(head)
        for attr in attrs:
            value = getattr(value, "__dict__", {}).get(attr)
        if isinstance(value, torch.Tensor) and value.grad_fn is not None:
            found = True
            total += sum(1 for _ in record.nodes([value]))
    return total if found else None


def as_list(value) -> list:
    if value is None:
        return []
    if isinstance(value, torch.Tensor):
        return [value]
    return list(value)


def edit_behind(evidence, node, value):
    """The edit of this evidence that made ``value`` (a saved tensor, or the error reading
    it) stale, if any."""
    if isinstance(value, RuntimeError):
        parsed = record.stale(value)
        if parsed is None:
            return None
        shape, now, then = parsed
        numel = 1
        for d in shape:
            numel *= d
        # A view saved for backward (`f[i - 1]` of the `f` edited) is reported as an output of
        # AsStrided: it is part of the edited tensor, and shares its version counter.
        view = "of AsStrided," in str(value)
        for edit in reversed(evidence.edits):
            t = edit.tensor()
            current = t._version if t is not None else now
            fits = numel in edit.sizes or (view and numel < max(edit.sizes, default=0))
            if fits and then <= edit.version < current == now:
                return edit
        return None
    try:
        storage = value.untyped_storage().data_ptr()
    except (RuntimeError, NotImplementedError):
        return None
    for edit in reversed(evidence.edits):
        # Saved before the edit, same memory, and still readable: the version counter never
        # saw the edit (it went through .data), so backward uses the edited values.
        if edit.storage and edit.storage == storage and node._sequence_nr() < edit.clock:
            return edit
    return None

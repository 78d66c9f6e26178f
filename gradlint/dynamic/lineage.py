"""Value lineage: which leaves influenced a value whose history was cut, and through which finding.

A side table keyed by id, with weak references (nothing is attached to the user's tensors):
tensor id -> (weak reference, {fid: leaf keys}). ``NOGRAD`` keys the leaves upstream of a
value computed without history. A mixin of ``tracer.Tracer``, whose ``__init__`` sets
``lineage``; the helpers read the tensors of a torch call's arguments and results.
"""
from __future__ import annotations

import weakref

import torch

NOGRAD = -1  # lineage key: leaves that influenced a value computed without history
FROZEN_HELD = -2  # lineage key: parameters an optimizer holds that did not require grad


class Lineage:
    """``tag`` and ``lineage_of``, on ``self.lineage``."""

    def tag(self, t: torch.Tensor, lineage: dict) -> None:
        entry = self.lineage.get(id(t))
        if entry is not None and entry[0]() is t:
            merged = dict(entry[1])
            merge(merged, lineage)
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


def flat_tensors(value, depth: int = 0):
    """The tensors in a value a probe saw: a tensor, or lists/tuples of them (``torch.tensor(losses)``),
    a dict's values (``model.state_dict()``), a module's parameters (what ``state_dict()`` copies)."""
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, (list, tuple)) and depth < 3:
        for item in value[:10000]:
            yield from flat_tensors(item, depth + 1)
    elif isinstance(value, dict) and depth < 3:
        for item in list(value.values())[:10000]:
            yield from flat_tensors(item, depth + 1)
    elif isinstance(value, torch.nn.Module) and depth == 0:
        yield from value.parameters()


def merge(into: dict, lineage: dict) -> None:
    for fid, keys in lineage.items():
        current = into.get(fid)
        into[fid] = keys if current is None else (current | keys)


def tensors_in(args, kwargs):
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


def carries(lineage: dict, args, kwargs) -> bool:
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


def outputs(out):
    if isinstance(out, torch.Tensor):
        yield out
    elif isinstance(out, (list, tuple)):
        for o in out:
            if isinstance(o, torch.Tensor):
                yield o

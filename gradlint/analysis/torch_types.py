"""What torch's public callables return: the measured table the static pass reads.

Whether a call such as ``torch.argmax(x)`` or ``x.item()`` yields a tensor that can carry autograd
history (a grad_fn reachable from a leaf that requires grad), a tuple of tensors, or a plain Python
value decides whether a rule follows the value as a possible trained-through tensor. Integer and
bool outputs never require grad, and autograd marks some outputs non-differentiable (the indices of
``max(x, dim)``); see the PyTorch autograd notes
(https://pytorch.org/docs/stable/notes/autograd.html) and ``torch.Tensor.requires_grad``.

The table lives in ``gradlint/data/torch_types.json``. It is generated from torch itself by
``tools/gen_torch_types.py``, which calls each public callable on sample inputs that require grad
(taken from PyTorch's operator database) and records what came back; it is never written by hand.
This module only reads it, once and lazily: it never imports torch.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

__all__ = ["carries_grad", "data_version", "index_arguments", "number_arguments", "result_kinds", "result_of"]

_DATA_NAME = "torch_types.json"

# Module spellings the table records under one name. ``torch.Tensor.x`` and ``Tensor.x`` both
# name the method; ``torch.functional`` is where some ``torch.<fn>`` are defined.
_PREFIXES = (
    ("torch.Tensor.", "Tensor."),
    ("torch.nn.functional.", "torch.nn.functional."),
    ("torch.functional.", "torch."),
)


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    """The parsed table, read once (by the loader of the saved-tensor table)."""
    from gradlint.analysis.saves import read_table

    return read_table(_DATA_NAME)


def _canonical(name: str) -> str:
    for prefix, replacement in _PREFIXES:
        if name.startswith(prefix):
            return replacement + name[len(prefix):]
    return name


def _entry(name: str) -> dict[str, Any] | None:
    return _data()["names"].get(_canonical(name))


def result_of(name: str) -> str | None:
    """What a call of ``name`` returns: ``"tensor"``, ``"tensors"`` (a tuple, list or named tuple
    of tensors), ``"number"`` (a Python int/float/complex/bool or a ``torch.Size``), ``"none"`` or
    ``"other"``; None if the name was not measured.

    name: ``torch.argmax``, ``torch.nn.functional.relu``, ``torch.linalg.svd``, or a method as
    ``Tensor.argmax`` (``torch.Tensor.argmax`` also accepted). When the measured calls of one name
    disagree (``torch.max(x)`` is a tensor, ``torch.max(x, 1)`` a named tuple) this is the
    richest kind seen, in the order tensors, tensor, number, other, none; :func:`result_kinds`
    gives them all.
    """
    entry = _entry(name)
    return None if entry is None else str(entry["result"])


def result_kinds(name: str) -> frozenset[str] | None:
    """Every kind the measured calls of ``name`` returned (see :func:`result_of`); None if unknown."""
    entry = _entry(name)
    if entry is None:
        return None
    return frozenset(entry.get("results") or [entry["result"]])


def carries_grad(name: str, output_index: int | None = None) -> bool | None:
    """Whether the tensor result of ``name`` can carry autograd history when its inputs require
    grad (https://pytorch.org/docs/stable/notes/autograd.html); None if not known.

    False for integer and bool results (``argmax``, ``eq``, ``nonzero``), for non-tensor results
    (``item``, ``numel``) and for outputs autograd marks non-differentiable. Measured
    conservatively: False only if no measured call produced a result requiring grad.

    output_index: for a ``"tensors"`` result, the position in the tuple (``torch.max(x, 1)``:
    0 the values, True; 1 the indices, False). Without it, or when the outputs of ``name`` all
    agree, the answer covers any output. An index past the measured outputs of a fixed-size tuple
    gives None.
    """
    entry = _entry(name)
    if entry is None:
        return None
    per_output = entry.get("grad_outputs")
    if output_index is None or per_output is None:
        return bool(entry["grad"])
    if -len(per_output) <= output_index < len(per_output):
        return bool(per_output[output_index])
    return None


def index_arguments(name: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The arguments of ``name`` that take integer or bool tensors (indices, a mask: the
    ``index`` of ``torch.index_select(x, 0, index)``, the ``mask`` of ``x.masked_fill(mask, v)``),
    as positions (a method's counted after its receiver) and keywords. Autograd differentiates
    only floating and complex tensors, so whatever computed such an argument gets no gradient
    through the call. Measured: every sample call of ``name`` passed an integer or bool tensor
    there; empty when unknown."""
    entry = _entry(name)
    if entry is None:
        return (), ()
    return tuple(entry.get("index_args", ())), tuple(entry.get("index_keywords", ()))


def number_arguments(name: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The arguments of ``name`` that take a Python number or a tuple of integers (the ``k`` of
    ``torch.topk(x, k)``, a ``dim``, ``expand``'s sizes), as positions (a method's counted after
    its receiver) and keywords: whatever computed such an argument has no history in the
    result. Measured: every sample call of ``name`` passed a number there; empty when unknown."""
    entry = _entry(name)
    if entry is None:
        return (), ()
    return tuple(entry.get("number_args", ())), tuple(entry.get("number_keywords", ()))


def data_version() -> str:
    """The torch version the table was measured with (e.g. ``"2.13.0+cpu"``)."""
    return str(_data()["torch_version"])

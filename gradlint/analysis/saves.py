"""What PyTorch autograd saves for backward: the measured table GL005 reads.

During the forward pass autograd keeps ("saves") some inputs or outputs of each recorded op for the
backward pass, and records each saved tensor's version counter; an in-place edit of a saved tensor
bumps the counter and backward then fails with "one of the variables needed for gradient
computation has been modified by an inplace operation". See the PyTorch notes, "Saved tensors"
(https://pytorch.org/docs/stable/notes/autograd.html#saved-tensors) and "In-place correctness
checks" (https://pytorch.org/docs/stable/notes/autograd.html#in-place-correctness-checks).

The table lives in ``gradlint/data/saved_tensors.json``. It is generated from torch itself by
``tools/gen_saved_tensors.py`` (which provokes exactly that failure for each op); it is never
written by hand. This module only reads it: it never imports torch.
"""
from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = [
    "ModuleSaves",
    "Saves",
    "data_version",
    "inplace_methods",
    "inplace_argument",
    "is_inplace_method",
    "module_saves",
    "op_saves",
]

_DATA_NAME = "saved_tensors.json"

@dataclass(frozen=True)
class Saves:
    """What one recorded op call saves for backward (measured; see the autograd notes on saved
    tensors and in-place correctness checks, https://pytorch.org/docs/stable/notes/autograd.html#saved-tensors).

    inputs: 0-based positions of the call's positional arguments that are saved (for a
        ``torch.Tensor`` method the receiver is position 0; a list argument such as
        ``torch.cat([a, b])`` counts as saved if any of its tensors is). Positions may name
        integer/bool tensors too (indices, masks, conditions), which are saved by e.g. gather,
        index_select, masked_fill, where, embedding.
    output: an output of the call is saved, so an in-place edit of the result (``e = x.exp();
        e.add_(1)``) breaks backward.
    """

    inputs: frozenset[int]
    output: bool

    def __bool__(self) -> bool:
        return bool(self.inputs) or self.output


@dataclass(frozen=True)
class ModuleSaves:
    """What a ``torch.nn`` module's forward (in training mode) saves for backward (measured; see
    https://pytorch.org/docs/stable/notes/autograd.html#saved-tensors and the in-place
    correctness checks section of that page).

    input: editing the module's (first positional) input in place after the forward breaks backward.
    output: editing its (first) output in place breaks backward (``nn.ReLU``, ``nn.Sigmoid``, ...).
    inplace_kwarg: the constructor accepts ``inplace=``.
    inputs: positions of all positional inputs whose in-place edit breaks backward (e.g. a loss's
        target); empty when the data file predates this field.
    """

    input: bool
    output: bool
    inplace_kwarg: bool
    inputs: frozenset[int] = frozenset()
    parameters: bool = True  # an instance holds trainable parameters (a Linear does, a loss does not)
    inplace_output: bool = False  # with inplace=True, editing its output breaks backward


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    """The parsed table, read once."""
    return read_table(_DATA_NAME)


def read_table(name: str) -> dict[str, Any]:
    """A measured table of ``gradlint/data`` (``saved_tensors.json``, ``torch_types.json``).
    Prefers importlib.resources; falls back to the file next to the package (a namespace/zip-less
    source tree)."""
    text: str | None = None
    try:
        from importlib.resources import files

        text = files("gradlint").joinpath("data").joinpath(name).read_text(encoding="utf-8")
    except Exception:  # noqa: BLE001 - fall back to the path next to this package
        text = None
    if text is None:
        text = (Path(__file__).resolve().parent.parent / "data" / name).read_text(encoding="utf-8")
    return json.loads(text)


def _entry(raw: dict[str, Any]) -> Saves:
    return Saves(frozenset(int(i) for i in raw.get("inputs", ())), bool(raw.get("output", False)))


def _union(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Union of several {"all": ..., "when": ...} entries."""
    def merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
        return {"inputs": sorted(set(a.get("inputs", ())) | set(b.get("inputs", ()))),
                "output": bool(a.get("output")) or bool(b.get("output"))}

    merged: dict[str, Any] = {"all": entries[0]["all"], "when": dict(entries[0].get("when") or {})}
    for entry in entries[1:]:
        merged["all"] = merge(merged["all"], entry["all"])
        for k, v in (entry.get("when") or {}).items():
            merged["when"][k] = merge(merged["when"][k], v) if k in merged["when"] else v
    return merged


def _select(op: dict[str, Any], tensor_inputs: frozenset[int] | None, nargs: int | None) -> dict[str, Any]:
    variants = op.get("variants")
    if not variants or (tensor_inputs is None and nargs is None):
        return op
    shaped = [v for v in variants if tensor_inputs is None or frozenset(v["tensors"]) == tensor_inputs]
    matches = [v for v in shaped if nargs is None or v["nargs"] == nargs]
    if not matches and nargs is not None:
        # More arguments than any measured shape (`x.max(1, keepdim=True)`): the longest shape
        # measured within them, whose arguments decide what is saved.
        within = [v["nargs"] for v in shaped if v["nargs"] <= nargs]
        matches = [v for v in shaped if within and v["nargs"] == max(within)]
    return _union(matches) if matches else op


@lru_cache(maxsize=4096)
def _op_saves(qualname: str, grad_inputs: frozenset[int] | None, tensor_inputs: frozenset[int] | None,
              nargs: int | None) -> Saves | None:
    op = _data()["ops"].get(qualname)
    if op is None:
        return None
    op = _select(op, tensor_inputs, nargs)
    when: dict[str, Any] = op.get("when") or {}
    if grad_inputs is None or not when:
        return _entry(op["all"])
    known = {int(k) for k in when}
    if known <= grad_inputs:
        # every input that can carry grad does: exactly the measured "all" configuration
        return _entry(op["all"])
    inputs: set[int] = set()
    output = False
    for i in sorted(grad_inputs & known):
        part = _entry(when[str(i)])
        inputs |= part.inputs
        output = output or part.output
    return Saves(frozenset(inputs), output)


def op_saves(qualname: str, grad_inputs: Collection[int] | None = None, *,
             tensor_inputs: Collection[int] | None = None, nargs: int | None = None) -> Saves | None:
    """What a recorded call of ``qualname`` saves for backward.

    Data measured from torch by ``tools/gen_saved_tensors.py``; background in the PyTorch notes
    on saved tensors (https://pytorch.org/docs/stable/notes/autograd.html#saved-tensors) and on
    in-place correctness checks (https://pytorch.org/docs/stable/notes/autograd.html#in-place-correctness-checks).

    qualname: ``torch.pow``, ``torch.Tensor.pow`` (receiver = position 0),
        ``torch.nn.functional.relu``, ``operator.mul`` / ``operator.getitem`` for Python operators.
    grad_inputs: positions of the tensor inputs that may require grad (None: assume all). The
        result is the union of the per-input "when" entries of those positions (binary ops save
        the *other* operand: ``x * y`` saves ``y`` only if ``x`` requires grad); the measured
        "all" entry if grad_inputs is None, covers every grad-capable input, or the op has no
        per-input data. Positions that cannot carry grad (indices, literals) are ignored, so an
        empty grad_inputs gives "saves nothing" (the call is not recorded at all).
    tensor_inputs, nargs (optional refinement): the positions known to hold tensors, and the number
        of positional arguments. Some ops save different things per argument shape: ``x ** 2``
        saves only ``x`` but ``x ** y`` (tensor exponent) also saves the output; ``x.max()`` saves
        input and output but ``x.max(1)`` neither. By default the answer is the union over the
        measured shapes (conservative); given these, only the matching measured shapes are used
        (falling back to the union when none matches).

    Returns None if the op is unknown.
    """
    key = None if grad_inputs is None else frozenset(int(i) for i in grad_inputs)
    tkey = None if tensor_inputs is None else frozenset(int(i) for i in tensor_inputs)
    return _op_saves(qualname, key, tkey, nargs)


@lru_cache(maxsize=512)
def module_saves(qualname: str) -> ModuleSaves | None:
    """What an instance of the ``torch.nn`` module class ``qualname`` (``torch.nn.Linear``) saves
    in a training-mode forward; None if unknown.

    Measured from torch by ``tools/gen_saved_tensors.py`` (activation modules with ``inplace=``
    measured with ``inplace=False``); see https://pytorch.org/docs/stable/notes/autograd.html#saved-tensors
    and the in-place correctness checks section of the same page.
    """
    raw = _data()["modules"].get(qualname)
    if raw is None:
        return None
    return ModuleSaves(
        input=bool(raw["input"]),
        output=bool(raw["output"]),
        inplace_kwarg=bool(raw["inplace_kwarg"]),
        inputs=frozenset(int(i) for i in raw.get("inputs", [0] if raw["input"] else [])),
        parameters=bool(raw.get("parameters", True)),
        inplace_output=bool(raw.get("inplace_output", False)),
    )


@lru_cache(maxsize=1)
def inplace_methods() -> frozenset[str]:
    """Names of the public ``torch.Tensor`` methods that modify their receiver in place
    (``add_``, ``relu_``, ``zero_``, ``copy_``, ``masked_fill_``, ``uniform_``, ...), derived from
    torch by ``tools/gen_saved_tensors.py``. Excludes ``requires_grad_``, ``share_memory_``,
    ``detach_`` and others that leave the data unchanged. Such an edit of a tensor saved for
    backward trips the in-place correctness check
    (https://pytorch.org/docs/stable/notes/autograd.html#in-place-correctness-checks; see also
    …/autograd.html#saved-tensors). Note ``apply_``/``map_``/``map2_`` change data without bumping
    the version counter, so autograd cannot detect them.
    """
    return frozenset(_data()["inplace_methods"])


def inplace_argument(qualname: str) -> int | None:
    """The position at which ``qualname`` (a ``torch.nn.functional`` function or a ``torch.nn``
    module class) takes ``inplace`` positionally (``F.leaky_relu(x, 0.1, True)`` → 2), or None.
    Read by ``tools/gen_saved_tensors.py`` from the installed torch's signatures."""
    return _data().get("inplace_arguments", {}).get(qualname)


def is_inplace_method(name: str) -> bool:
    """Whether ``tensor.<name>(...)`` modifies the tensor in place (see :func:`inplace_methods`;
    https://pytorch.org/docs/stable/notes/autograd.html#in-place-correctness-checks,
    …/autograd.html#saved-tensors)."""
    return name in inplace_methods()


def data_version() -> str:
    """The torch version the table was measured with (e.g. ``"2.13.0+cpu"``). Saved tensors are an
    implementation detail that can change between releases
    (https://pytorch.org/docs/stable/notes/autograd.html#saved-tensors)."""
    return str(_data()["torch_version"])

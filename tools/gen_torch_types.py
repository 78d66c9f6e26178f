#!/usr/bin/env python
"""Measure what torch's public callables return, and write gradlint/data/torch_types.json.

gradlint's static pass never imports torch, yet its rules need to know whether a call such as
``torch.argmax(x)`` or ``x.item()`` yields a tensor that can carry autograd history (a grad_fn
reachable from a leaf that requires grad), a tuple of such tensors, or a plain Python value. That
knowledge is not typed in by hand here: it is measured by calling the installed torch.

Method. For one public name and one sample call, every floating input tensor is a leaf with
``requires_grad=True`` (float32 when the op supports it). The result is classified as

- ``"tensor"``: a ``torch.Tensor``;
- ``"tensors"``: a tuple, list or named tuple whose items are tensors (``None`` items allowed);
- ``"number"``: a Python ``int``/``float``/``complex``/``bool`` or a ``torch.Size``;
- ``"none"``: ``None``;
- ``"other"``: anything else (``tolist()``'s nested lists, strings, handles, ...);

and each output tensor's ``requires_grad`` says whether it carries autograd history. Outputs of
integer or bool dtype never do, nor do outputs autograd marks non-differentiable
(``argmax``, ``eq``, ``nonzero``, the indices of ``max(x, dim)``). Samples are merged
conservatively: a name gets ``grad: false`` only if NO sample produced an output requiring grad;
for ``"tensors"`` the flags are kept per output index when they differ (``grad_outputs``).
An argument every sample filled with an integer or bool tensor (an index, a mask) is listed in
``index_args`` (positions; a method's counted after its receiver) or ``index_keywords``: autograd
differentiates only floating and complex tensors, so nothing upstream of such an argument gets a
gradient through the call. An argument every sample filled with a Python number or a tuple of
integers (``k`` of ``topk``, a ``dim``, a size) is listed in ``number_args`` or ``number_keywords``:
no tensor is accepted there that autograd would differentiate. Only calls in the public argument
order count (not op_db's wrappers).
When the samples of one name disagree on the kind (``torch.max(x)`` is a tensor,
``torch.max(x, 1)`` a named tuple), ``result`` is the richest kind seen (order: tensors, tensor,
number, other, none) and ``results`` lists every kind seen.

Sample calls come from PyTorch's own operator database
(``torch.testing._internal.common_methods_invocations.op_db``): each OpInfo generates valid
arguments for its op. The public callable itself is called with those arguments
(``torch.<name>``, ``torch.nn.functional.<name>``, ``torch.linalg/fft/special.<name>``, the
method ``Tensor.<name>`` and the in-place method ``Tensor.<name>_`` on a non-leaf copy of the
receiver), and so are the OpInfo's aliases. The methods and functions that return Python values
are not all in op_db; the list of those to probe (PROBES below) is the only hand-written part.
Names that cannot be probed (no sample call succeeded) are skipped with a warning on stderr.

Usage:
    .venv/bin/python tools/gen_torch_types.py [--output PATH] [-v]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import types
import unittest
import warnings
from pathlib import Path
from typing import Any, Callable, Iterable

import torch
import torch.nn.functional as F

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = REPO / "gradlint" / "data" / "torch_types.json"
GENERATED_BY = "tools/gen_torch_types.py"

# Richest first: the merged ``result`` of a name whose samples disagree is the first kind seen in
# this order (a linter told "tensors" still gets the per-output grad flags).
KINDS = ("tensors", "tensor", "number", "other", "none")

# op_db names with these prefixes, and private or dunder names, are outside the namespaces this
# table covers (torch, Tensor methods, nn.functional, linalg, fft, special).
NAMESPACES = {"": torch, "nn.functional.": F, "linalg.": torch.linalg, "fft.": torch.fft,
              "special.": torch.special}
# Samples per OpInfo. op_db repeats shapes: on torch 2.13 all samples give the identical table
# in 3.5x the time (149 s against 42 s), so the rest only cost run time.
MAX_SAMPLES = 24
# Fallback dtypes (in order) for ops that do not support float32 on CPU (bitwise, gcd, ...).
FALLBACK_DTYPES = (torch.float64, torch.complex64, torch.int64, torch.bool)
LEAF_INPLACE_ERROR = "a leaf Variable that requires grad"

VERBOSE = False


def warn(msg: str) -> None:
    print(f"gen_torch_types: warning: {msg}", file=sys.stderr)


def note(msg: str) -> None:
    if VERBOSE:
        print(f"gen_torch_types: {msg}", file=sys.stderr)


def load_op_db() -> list:
    """PyTorch's OpInfo list. Its module imports ``expecttest`` (a test-only dependency) solely
    for a TestCase base class and the ``--accept`` flag; when it is not installed a stand-in
    module provides those two names, so the generator needs only torch."""
    try:
        import expecttest  # noqa: F401
    except ImportError:
        stand_in = types.ModuleType("expecttest")
        stand_in.TestCase = unittest.TestCase  # type: ignore[attr-defined]
        stand_in.ACCEPT = False  # type: ignore[attr-defined]
        sys.modules["expecttest"] = stand_in
    from torch.testing._internal.common_methods_invocations import op_db

    return list(op_db)


# --------------------------------------------------------------------------------------------
# Classifying one result


def classify(value: Any) -> tuple[str, list[bool]]:
    """The kind of ``value`` and, for tensor kinds, whether each output requires grad."""
    if isinstance(value, torch.Tensor):
        return "tensor", [bool(value.requires_grad)]
    if isinstance(value, torch.Size):
        return "number", []
    if isinstance(value, (tuple, list)) and value:
        if all(isinstance(v, torch.Tensor) or v is None for v in value) and any(
                isinstance(v, torch.Tensor) for v in value):
            return "tensors", [isinstance(v, torch.Tensor) and bool(v.requires_grad) for v in value]
        return "other", []
    if isinstance(value, (bool, int, float, complex)):
        return "number", []
    if value is None:
        return "none", []
    return "other", []


class Record:
    """What the successful samples of one name produced."""

    def __init__(self) -> None:
        self.kinds: set[str] = set()
        self.grad = False
        self.tuple_grads: list[bool] | None = None  # OR per output index over "tensors" samples
        self.tuple_lengths: set[int] = set()
        self.dtypes: set[str] = set()
        self.calls = 0
        # argument (position, or keyword name) -> what the samples passed there: "index" (an
        # integer or bool tensor: indices, a mask), "float" (a floating or complex tensor), "other"
        self.args: dict[int | str, set[str]] = {}

    def add(self, value: Any, dtype: torch.dtype) -> None:
        kind, grads = classify(value)
        self.calls += 1
        self.kinds.add(kind)
        self.dtypes.add(str(dtype))
        self.grad = self.grad or any(grads)
        if kind == "tensors":
            self.tuple_lengths.add(len(grads))
            if self.tuple_grads is None:
                self.tuple_grads = list(grads)
            else:
                n = max(len(self.tuple_grads), len(grads))
                old = self.tuple_grads + [False] * (n - len(self.tuple_grads))
                new = grads + [False] * (n - len(grads))
                self.tuple_grads = [a or b for a, b in zip(old, new)]

    def add_arguments(self, positional: tuple, keywords: dict) -> None:
        """What one successful direct call passed, argument by argument."""
        for key, value in [*enumerate(positional), *keywords.items()]:
            if isinstance(value, torch.Tensor):
                kind = "float" if value.dtype.is_floating_point or value.dtype.is_complex else "index"
            elif isinstance(value, (bool, int, float)) or (
                    isinstance(value, (list, tuple, torch.Size)) and value and all(type(v) in (bool, int) for v in value)):
                kind = "number"  # (a Python number, or a size: `k` of topk, `dim`, `expand`'s sizes)
            else:
                kind = "other"
            self.args.setdefault(key, set()).add(kind)

    def index_arguments(self) -> tuple[list[int], list[str]]:
        """The arguments every sample filled with an integer or bool tensor (indices, a mask):
        autograd differentiates only floating and complex tensors, so whatever such an argument
        was computed from gets no gradient through the call."""
        index = [k for k, kinds in self.args.items() if kinds == {"index"}]
        return sorted(k for k in index if type(k) is int), sorted(k for k in index if type(k) is str)

    def number_arguments(self) -> tuple[list[int], list[str]]:
        """The arguments every sample filled with a Python number or a tuple of integers (``k``
        of ``topk``, a ``dim``, a size): no tensor goes there, so nothing that computed it has
        history in the result."""
        numbers = [k for k, kinds in self.args.items() if kinds == {"number"}]
        return sorted(k for k in numbers if type(k) is int), sorted(k for k in numbers if type(k) is str)

    def entry(self) -> dict[str, Any]:
        out: dict[str, Any] = {"result": next(k for k in KINDS if k in self.kinds), "grad": self.grad}
        positions, keywords = self.index_arguments()
        if positions:
            out["index_args"] = positions
        if keywords:
            out["index_keywords"] = keywords
        positions, keywords = self.number_arguments()
        if positions:
            out["number_args"] = positions
        if keywords:
            out["number_keywords"] = keywords
        if len(self.kinds) > 1:
            out["results"] = [k for k in KINDS if k in self.kinds]
        # Per-index flags only when they say more than "grad": a fixed-arity tuple whose outputs
        # differ (max(dim), sort, topk); split/unbind-style tuples of varying length are uniform.
        tg = self.tuple_grads
        if tg is not None and len(set(tg)) > 1 and len(self.tuple_lengths) == 1:
            out["grad_outputs"] = tg
        if self.dtypes != {str(torch.float32)}:
            out["probed_dtypes"] = sorted(self.dtypes)
        return out


# --------------------------------------------------------------------------------------------
# Probing op_db


def public_function(opinfo_name: str) -> tuple[str, Callable] | None:
    """``torch.X`` / ``torch.nn.functional.X`` / ``torch.linalg.X`` ... for an OpInfo name."""
    for prefix in sorted(NAMESPACES, key=len, reverse=True):
        if prefix and not opinfo_name.startswith(prefix):
            continue
        short = opinfo_name[len(prefix):]
        if not short or "." in short or short.startswith("_"):
            return None
        fn = getattr(NAMESPACES[prefix], short, None)
        if fn is None or not callable(fn) or isinstance(fn, type):
            return None
        return f"torch.{prefix}{short}", fn
    return None


def public_method(variant: Any, fallback: str) -> str | None:
    """``Tensor.X`` for an OpInfo's method or in-place variant, when X is a public Tensor method."""
    if variant is None:
        return None
    name = getattr(variant, "__name__", None) or fallback
    if not name or name.startswith("_") or not callable(getattr(torch.Tensor, name, None)):
        return None
    return name


def probe_dtype(opinfo: Any) -> torch.dtype:
    if opinfo.supports_dtype(torch.float32, "cpu"):
        return torch.float32
    for dt in FALLBACK_DTYPES:
        if opinfo.supports_dtype(dt, "cpu"):
            return dt
    return torch.float32


def samples(opinfo: Any, dtype: torch.dtype) -> list:
    requires_grad = dtype.is_floating_point or dtype.is_complex
    torch.manual_seed(0)
    out = []
    for i, s in enumerate(opinfo.sample_inputs("cpu", dtype, requires_grad=requires_grad)):
        if i >= MAX_SAMPLES:
            break
        out.append(s)
    return out


def _detach_tree(value: Any) -> Any:
    """A non-leaf copy of every grad-requiring tensor (an in-place call on a leaf that requires
    grad is refused), keeping its autograd history."""
    if isinstance(value, torch.Tensor):
        return value.clone() if value.requires_grad else value
    if isinstance(value, (list, tuple)):
        return type(value)(_detach_tree(v) for v in value)
    return value


def call(kind: str, target: Any, sample: Any) -> Any:
    """Call ``target`` on one SampleInput: as a function of (input, *args), as a method of the
    input, or as an in-place method of a non-leaf copy of the input."""
    args, kwargs = tuple(sample.args), dict(sample.kwargs)
    inp = sample.input
    if kind == "function":
        try:
            return target(inp, *args, **kwargs)
        except RuntimeError as exc:
            if LEAF_INPLACE_ERROR not in str(exc):
                raise
            return target(_detach_tree(inp), *args, **kwargs)
    if not isinstance(inp, torch.Tensor):
        raise TypeError("receiver is not a tensor")
    if kind == "inplace":
        inp = _detach_tree(inp)
    return getattr(inp, target)(*args, **kwargs)


def targets_of(opinfo: Any) -> list[tuple[str, str, Any, bool]]:
    """What to call for one OpInfo: (recorded name, call kind, callable or method name, primary).

    Primary targets are the OpInfo's own callables and its aliases; an unprobeable primary target
    is warned about. Secondary targets are the same short name in the other namespaces
    (``nn.functional.relu`` -> ``torch.relu``, ``Tensor.relu``; ``softmax`` -> ``F.softmax``),
    called with the same samples: recorded only where those calls succeed."""
    out: list[tuple[str, str, Any, bool]] = []
    variants = [(opinfo.name, opinfo.method_variant, opinfo.inplace_variant)]
    variants += [(a.name, a.method_variant, a.inplace_variant) for a in opinfo.aliases]
    for name, method, inplace in variants:
        fn = public_function(name)
        if fn is not None:
            out.append((fn[0], "function", fn[1], True))
        short = name.rsplit(".", 1)[-1]
        m = public_method(method, short)
        if m is not None:
            out.append((f"Tensor.{m}", "method", m, True))
        m = public_method(inplace, short + "_")
        if m is not None:
            out.append((f"Tensor.{m}", "inplace", m, True))
    if not out:
        return out
    short = opinfo.name.rsplit(".", 1)[-1]
    have = {t[0] for t in out}
    for prefix in NAMESPACES:
        fn = public_function(prefix + short)
        if fn is not None and fn[0] not in have:
            out.append((fn[0], "function", fn[1], False))
    if f"Tensor.{short}" not in have and public_method(getattr(torch.Tensor, short, None), short):
        out.append((f"Tensor.{short}", "method", short, False))
    return out


def probe_op_db(records: dict[str, Record], failures: dict[str, str]) -> None:
    for opinfo in load_op_db():
        targets = targets_of(opinfo)
        if not targets:
            note(f"{opinfo.name}: no public torch/Tensor/nn.functional/linalg/fft/special callable; out of scope")
            continue
        dtype = probe_dtype(opinfo)
        try:
            batch = samples(opinfo, dtype)
        except Exception as exc:  # noqa: BLE001 - an OpInfo that cannot build samples on CPU
            for recorded, _, _, primary in targets:
                if primary and recorded not in records:
                    failures.setdefault(recorded, f"sample_inputs failed: {type(exc).__name__}: {exc}")
            continue
        own = public_function(opinfo.name)
        # op_db wraps some functions to fit its (input, *args) convention (torch.where(cond, x, y),
        # F.embedding(idx, weight), torch.einsum(eq, tensors)); the wrapper returns the public
        # call's result unchanged, so it stands in when the direct call does not fit.
        wrapper = opinfo.op if own is not None and opinfo.op is not own[1] else None
        for recorded, kind, target, primary in targets:
            rec = records.setdefault(recorded, Record())
            last_error = None
            for sample in batch:
                torch.manual_seed(0)
                try:
                    value = call(kind, target, sample)
                    if (dtype.is_floating_point or dtype.is_complex) and (kind != "function" or wrapper is None):
                        # (only where the samples' own inputs can require grad, and only where the
                        # samples follow the public argument order: a wrapper's is its own, and
                        # F.embedding_bag even accepts its two tensors swapped)
                        given = (sample.input, *sample.args) if kind == "function" else tuple(sample.args)
                        rec.add_arguments(given, dict(sample.kwargs))
                except Exception as exc:  # noqa: BLE001 - a sample this exact callable does not accept
                    last_error = exc
                    if wrapper is None or recorded != own[0]:
                        continue
                    torch.manual_seed(0)
                    try:
                        value = wrapper(sample.input, *sample.args, **sample.kwargs)
                    except Exception as exc2:  # noqa: BLE001
                        last_error = exc2
                        continue
                rec.add(value, dtype)
            if rec.calls:
                failures.pop(recorded, None)
            elif primary and last_error is not None:
                failures[recorded] = describe(last_error)
            elif last_error is not None:
                note(f"{recorded}: no {opinfo.name} sample fits it ({describe(last_error)}); not recorded from here")


def describe(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}"


# --------------------------------------------------------------------------------------------
# Hand-written probes: methods and functions returning Python values, and autograd's own tensor
# methods, which op_db does not cover. Only the calls are written here; the answers are measured.


def R(*shape: int, grad: bool = True) -> torch.Tensor:
    return torch.randn(*shape).requires_grad_(grad)


Probe = Callable[[], Any]
PROBES: list[tuple[str, Probe]] = []


def probe(name: str, *calls: Probe) -> None:
    for c in calls:
        PROBES.append((name, c))


def fn_and_method(name: str, *calls: Callable[[Callable], Any]) -> None:
    """Probe ``torch.<name>`` and ``Tensor.<name>`` where they exist; each call gets a function
    taking the receiver first."""
    if callable(getattr(torch, name, None)):
        probe(f"torch.{name}", *[lambda c=c: c(getattr(torch, name)) for c in calls])
    if callable(getattr(torch.Tensor, name, None)):
        probe(f"Tensor.{name}", *[lambda c=c: c(lambda t, *a, **k: getattr(t, name)(*a, **k)) for c in calls])


fn_and_method("item", lambda f: f(R(1)), lambda f: f(R()))
fn_and_method("tolist", lambda f: f(R(3, 4)), lambda f: f(R()))
for _name in ("numel", "nelement", "dim", "ndimension", "element_size", "is_contiguous",
              "is_floating_point", "is_complex", "data_ptr", "get_device", "is_signed"):
    fn_and_method(_name, lambda f: f(R(3, 4)))
fn_and_method("size", lambda f: f(R(3, 4)), lambda f: f(R(3, 4), 0))
fn_and_method("stride", lambda f: f(R(3, 4)), lambda f: f(R(3, 4), 0))
fn_and_method("equal", lambda f: f(R(3, 4), R(3, 4)))
fn_and_method("allclose", lambda f: f(R(3, 4), R(3, 4)))
fn_and_method("is_nonzero", lambda f: f(R(1)))
fn_and_method("is_same_size", lambda f: f(R(3, 4), R(3, 4)))
fn_and_method("is_set_to", lambda f: f(R(3, 4), R(3, 4)))
fn_and_method("is_tensor", lambda f: f(R(3, 4)))
fn_and_method("is_storage", lambda f: f(R(3, 4)))
# autograd's own methods: the linter's rules are about exactly these
fn_and_method("detach", lambda f: f(R(3, 4)))
fn_and_method("detach_", lambda f: f(R(3, 4) * 1))
fn_and_method("requires_grad_", lambda f: f(R(3, 4, grad=False)), lambda f: f(R(3, 4, grad=False), False))
fn_and_method("retain_grad", lambda f: f(R(3, 4) * 1))
fn_and_method("register_hook", lambda f: f(R(3, 4), lambda g: g))
fn_and_method("backward", lambda f: f(R(3, 4).sum()), lambda f: f(R(3, 4) * 1, torch.ones(3, 4)))
fn_and_method("numpy", lambda f: f(R(3, 4)), lambda f: f(R(3, 4), force=True))
fn_and_method("cpu", lambda f: f(R(3, 4)))
fn_and_method("type", lambda f: f(R(3, 4)), lambda f: f(R(3, 4), torch.float64))
fn_and_method("__len__", lambda f: f(R(3, 4)))
fn_and_method("__bool__", lambda f: f(R(1)))
fn_and_method("__float__", lambda f: f(R(1)))
fn_and_method("__int__", lambda f: f(R(1)))


def probe_hand(records: dict[str, Record], failures: dict[str, str]) -> None:
    for name, c in PROBES:
        rec = records.setdefault(name, Record())
        torch.manual_seed(0)
        try:
            value = c()
        except Exception as exc:  # noqa: BLE001
            if rec.calls == 0:
                failures[name] = describe(exc)
            continue
        rec.add(value, torch.float32)
        failures.pop(name, None)


# --------------------------------------------------------------------------------------------


def generate() -> dict:
    torch.set_num_threads(1)
    records: dict[str, Record] = {}
    failures: dict[str, str] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        probe_op_db(records, failures)
        probe_hand(records, failures)
    for name in sorted(failures):
        warn(f"{name}: not probed (no sample call succeeded; last error {failures[name]})")
    names = {n: r.entry() for n, r in sorted(records.items()) if r.calls}
    return {
        "generated_by": GENERATED_BY,
        "torch_version": str(torch.__version__),
        "names": names,
    }


def dumps(data: dict) -> str:
    return json.dumps(data, sort_keys=True, indent=1) + "\n"


def summary(names: dict[str, dict]) -> str:
    by_kind = {k: sum(1 for e in names.values() if e["result"] == k) for k in KINDS}
    no_grad = sum(1 for e in names.values() if not e["grad"])
    return (f"{len(names)} names ({', '.join(f'{n} {k}' for k, n in by_kind.items())}; "
            f"{no_grad} grad false)")


def main(argv: Iterable[str] | None = None) -> int:
    global VERBOSE
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help=f"default: {DEFAULT_OUTPUT}")
    parser.add_argument("-v", "--verbose", action="store_true")
    ns = parser.parse_args(None if argv is None else list(argv))
    VERBOSE = ns.verbose
    start = time.monotonic()
    data = generate()
    ns.output.parent.mkdir(parents=True, exist_ok=True)
    ns.output.write_text(dumps(data), encoding="utf-8")
    print(f"gen_torch_types: wrote {ns.output} ({summary(data['names'])}, torch {data['torch_version']}, "
          f"{time.monotonic() - start:.1f}s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python
"""Measure which tensors PyTorch autograd saves for backward, and write gradlint/data/saved_tensors.json.

GL005 reports an in-place edit of a tensor that an earlier recorded op saved for backward. Which
operand (or the output) each op saves is not typed in by hand here: it is measured from the
installed torch, by provoking exactly the failure the rule is about.

Method (see https://pytorch.org/docs/stable/notes/autograd.html#saved-tensors and the in-place
correctness checks section of that page). For one op, one sample call and one choice of which
tensor inputs require grad:

1. build every grad-requiring input as a NON-leaf (``base = t.clone().requires_grad_(); x = base * 1``)
   so in-place edits of it are legal;
2. run the op;
3. bump the version counter of ONE candidate tensor (input j or an output) with an in-place no-op
   (``t.add_(0)`` for floating tensors, ``t.copy_(t.clone())`` for integer and bool tensors);
4. call backward on a scalar reduction of the differentiable output(s).

The candidate was saved exactly when step 4 raises "... modified by an inplace operation".
Everything is rebuilt from a fixed seed for each candidate. This is done (a) with all tensor inputs
requiring grad ("all") and (b) with each tensor input alone requiring grad ("when"), since e.g.
``x * y`` saves ``y`` only when ``x`` requires grad. An op may have several sample calls (e.g.
``x ** 2`` and ``x ** y``); their results are merged by union.

The list of ops and modules to probe, and how to build their sample arguments, is the only
hand-written part. Ops that cannot be probed are skipped with a warning on stderr.

Usage:
    .venv/bin/python tools/gen_saved_tensors.py [--output PATH] [--cross-check] [-v]
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import inspect
import json
import re
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Callable

import torch
import torch.nn as nn
import torch.nn.functional as F

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = REPO / "gradlint" / "data" / "saved_tensors.json"
GENERATED_BY = "tools/gen_saved_tensors.py"
INPLACE_ERROR = "modified by an inplace operation"
# Editing the base of a view returned by a multi-view op (split, chunk, unbind) makes backward fail
# with this different error: the view cannot be rebased. Nothing was saved; recorded as not saved.
MULTI_VIEW_ERROR = "This view is the output of a function that returns multiple views"

VERBOSE = False


def warn(msg: str) -> None:
    print(f"gen_saved_tensors: warning: {msg}", file=sys.stderr)


def note(msg: str) -> None:
    if VERBOSE:
        print(f"gen_saved_tensors: {msg}", file=sys.stderr)


class ProbeError(Exception):
    pass


# --------------------------------------------------------------------------------------------
# Sample-argument helpers (hand-written inputs; the measured answer comes from torch).


def R(*shape: int) -> torch.Tensor:
    """Standard normal float tensor."""
    return torch.randn(*shape)


def P(*shape: int) -> torch.Tensor:
    """Strictly positive float tensor (log, sqrt, ...)."""
    return torch.rand(*shape) + 0.5


def U(*shape: int) -> torch.Tensor:
    """Float tensor inside (0, 1) (probabilities)."""
    return torch.rand(*shape) * 0.8 + 0.1


def I(high: int, *shape: int) -> torch.Tensor:  # noqa: E743
    """int64 index tensor."""
    return torch.randint(0, high, shape)


def M(*shape: int) -> torch.Tensor:
    """bool mask."""
    return torch.rand(*shape) > 0.5


class NoGrad:
    """A floating tensor argument that never requires grad (running statistics, shape donors)."""

    def __init__(self, t: torch.Tensor) -> None:
        self.t = t


def S(*args: Any, **kwargs: Any) -> tuple[tuple, dict]:
    return args, kwargs


Sample = Callable[[], "tuple[tuple, dict]"]

OPS: list[tuple[str, Sample]] = []


def op(qualname: str, *samples: Sample) -> None:
    for s in samples:
        OPS.append((qualname, s))


def fn_and_method(name: str, *samples: Sample, torch_fn: bool = True, method: bool = True) -> None:
    """Register ``torch.<name>`` and ``torch.Tensor.<name>`` (receiver = position 0), where they exist."""
    if torch_fn and hasattr(torch, name):
        op(f"torch.{name}", *samples)
    if method and hasattr(torch.Tensor, name):
        op(f"torch.Tensor.{name}", *samples)


# ---- elementwise unary (torch.X and Tensor.X)
UNARY: dict[str, Callable[..., torch.Tensor]] = {
    "exp": R, "exp2": R, "expm1": R, "log": P, "log1p": P, "log2": P, "log10": P,
    "sigmoid": R, "logit": U, "tanh": R, "relu": R, "sqrt": P, "rsqrt": P,
    "sin": R, "cos": R, "tan": R, "asin": U, "acos": U, "atan": R, "sinh": R, "cosh": R, "asinh": R,
    "abs": R, "absolute": R, "neg": R, "negative": R, "reciprocal": P, "square": R,
    "erf": R, "erfc": R, "erfinv": U, "lgamma": P, "digamma": P,
    "sign": R, "sgn": R, "floor": R, "ceil": R, "round": R, "trunc": R, "frac": R,
    "nan_to_num": R, "clone": R, "selu": R, "celu": R,
}
for _name, _make in UNARY.items():
    fn_and_method(_name, lambda _make=_make: S(_make(3, 4)))

fn_and_method("clamp", lambda: S(R(3, 4), -0.5, 0.5), lambda: S(R(3, 4), min=0.0),
              lambda: S(R(3, 4), R(3, 4) - 1, R(3, 4) + 1))
fn_and_method("clip", lambda: S(R(3, 4), -0.5, 0.5), lambda: S(R(3, 4), R(3, 4) - 1, R(3, 4) + 1))
fn_and_method("pow", lambda: S(R(3, 4), 2), lambda: S(R(3, 4), 3.0), lambda: S(P(3, 4), R(3, 4)))
op("torch.pow", lambda: S(2.0, R(3, 4)))
fn_and_method("float_power", lambda: S(R(3, 4), 2))

# ---- Python operators
op("operator.add", lambda: S(R(3, 4), R(3, 4)), lambda: S(R(3, 4), 1.0))
op("operator.sub", lambda: S(R(3, 4), R(3, 4)), lambda: S(R(3, 4), 1.0))
op("operator.mul", lambda: S(R(3, 4), R(3, 4)), lambda: S(R(3, 4), 2.0))
op("operator.truediv", lambda: S(R(3, 4), P(3, 4)), lambda: S(R(3, 4), 2.0), lambda: S(1.0, P(3, 4)))
op("operator.pow", lambda: S(R(3, 4), 2), lambda: S(P(3, 4), R(3, 4)), lambda: S(2.0, R(3, 4)))
op("operator.matmul", lambda: S(R(3, 4), R(4, 5)), lambda: S(R(2, 3, 4), R(2, 4, 5)),
   lambda: S(R(4), R(4)), lambda: S(R(3, 4), R(4)))
op("operator.neg", lambda: S(R(3, 4)))
op("operator.getitem", lambda: S(R(3, 4), 0), lambda: S(R(3, 4), slice(0, 2)),
   lambda: S(R(3, 4), (slice(None), 1)), lambda: S(R(3, 4), I(3, 2)), lambda: S(R(3, 4), M(3, 4)))

# ---- binary / ternary (torch.X and Tensor.X)
fn_and_method("add", lambda: S(R(3, 4), R(3, 4)), lambda: S(R(3, 4), R(3, 4), alpha=2.0))
fn_and_method("sub", lambda: S(R(3, 4), R(3, 4)), lambda: S(R(3, 4), R(3, 4), alpha=2.0))
fn_and_method("mul", lambda: S(R(3, 4), R(3, 4)))
fn_and_method("div", lambda: S(R(3, 4), P(3, 4)))
fn_and_method("true_divide", lambda: S(R(3, 4), P(3, 4)))
fn_and_method("rsub", lambda: S(R(3, 4), R(3, 4)))
fn_and_method("matmul", lambda: S(R(3, 4), R(4, 5)), lambda: S(R(2, 3, 4), R(2, 4, 5)))
fn_and_method("mm", lambda: S(R(3, 4), R(4, 5)))
fn_and_method("bmm", lambda: S(R(2, 3, 4), R(2, 4, 5)))
fn_and_method("mv", lambda: S(R(3, 4), R(4)))
fn_and_method("dot", lambda: S(R(4), R(4)))
fn_and_method("outer", lambda: S(R(3), R(4)))
fn_and_method("addmm", lambda: S(R(3, 5), R(3, 4), R(4, 5)))
fn_and_method("baddbmm", lambda: S(R(2, 3, 5), R(2, 3, 4), R(2, 4, 5)))
fn_and_method("addcmul", lambda: S(R(3, 4), R(3, 4), R(3, 4)))
fn_and_method("addcdiv", lambda: S(R(3, 4), R(3, 4), P(3, 4)))
fn_and_method("lerp", lambda: S(R(3, 4), R(3, 4), 0.3), lambda: S(R(3, 4), R(3, 4), U(3, 4)))
fn_and_method("maximum", lambda: S(R(3, 4), R(3, 4)))
fn_and_method("minimum", lambda: S(R(3, 4), R(3, 4)))
fn_and_method("fmax", lambda: S(R(3, 4), R(3, 4)))
fn_and_method("fmin", lambda: S(R(3, 4), R(3, 4)))
fn_and_method("atan2", lambda: S(R(3, 4), R(3, 4)))
fn_and_method("logaddexp", lambda: S(R(3, 4), R(3, 4)))
fn_and_method("logaddexp2", lambda: S(R(3, 4), R(3, 4)))
fn_and_method("xlogy", lambda: S(R(3, 4), P(3, 4)))
fn_and_method("hypot", lambda: S(R(3, 4), R(3, 4)))
op("torch.where", lambda: S(M(3, 4), R(3, 4), R(3, 4)), lambda: S(M(3, 4), R(3, 4), 0.0))
op("torch.Tensor.where", lambda: S(R(3, 4), M(3, 4), R(3, 4)))
op("torch.einsum", lambda: S("ij,jk->ik", R(3, 4), R(4, 5)), lambda: S("bij,bjk->bik", R(2, 3, 4), R(2, 4, 5)))
op("torch.cdist", lambda: S(R(3, 4), R(5, 4)))
op("torch.cross", lambda: S(R(4, 3), R(4, 3), dim=1))

# ---- reductions and scans
for _name in ("sum", "mean", "nansum"):
    fn_and_method(_name, lambda: S(R(3, 4)), lambda: S(R(3, 4), 1), lambda: S(R(3, 4), dim=1, keepdim=True))
for _name in ("max", "min"):
    fn_and_method(_name, lambda: S(R(3, 4)), lambda: S(R(3, 4), 1), lambda: S(R(3, 4), R(3, 4)))
for _name in ("amax", "amin", "logsumexp", "cumsum", "cumprod", "median"):
    fn_and_method(_name, lambda: S(R(3, 4), 1))
fn_and_method("median", lambda: S(R(3, 4)))
fn_and_method("prod", lambda: S(R(3, 4)), lambda: S(R(3, 4), 1))
fn_and_method("norm", lambda: S(R(3, 4)), lambda: S(R(3, 4), dim=1), lambda: S(R(3, 4), p=1))
for _name in ("var", "std"):
    fn_and_method(_name, lambda: S(R(3, 4)), lambda: S(R(3, 4), 1))
op("torch.linalg.vector_norm", lambda: S(R(3, 4)), lambda: S(R(3, 4), dim=1))
op("torch.linalg.norm", lambda: S(R(3, 4)))

# ---- shape and indexing
op("torch.Tensor.view", lambda: S(R(3, 4), 2, 6), lambda: S(R(3, 4), -1))
op("torch.Tensor.view_as", lambda: S(R(3, 4), NoGrad(R(2, 6))))
fn_and_method("reshape", lambda: S(R(3, 4), (2, 6)))
op("torch.Tensor.reshape_as", lambda: S(R(3, 4), NoGrad(R(2, 6))))
fn_and_method("transpose", lambda: S(R(3, 4), 0, 1))
fn_and_method("swapaxes", lambda: S(R(3, 4), 0, 1))
fn_and_method("permute", lambda: S(R(3, 4), (1, 0)))
fn_and_method("movedim", lambda: S(R(2, 3, 4), 0, 2))
fn_and_method("t", lambda: S(R(3, 4)))
op("torch.Tensor.contiguous", lambda: S(R(3, 4)))
fn_and_method("flatten", lambda: S(R(2, 3, 4)), lambda: S(R(2, 3, 4), 1))
fn_and_method("unflatten", lambda: S(R(3, 4), 1, (2, 2)))
fn_and_method("squeeze", lambda: S(R(3, 1, 4)), lambda: S(R(3, 1, 4), 1))
fn_and_method("unsqueeze", lambda: S(R(3, 4), 0))
op("torch.Tensor.expand", lambda: S(R(3, 1), 3, 4))
op("torch.Tensor.expand_as", lambda: S(R(3, 1), NoGrad(R(3, 4))))
op("torch.Tensor.repeat", lambda: S(R(3, 4), 2, 1))
fn_and_method("tile", lambda: S(R(3, 4), (2, 1)))
fn_and_method("repeat_interleave", lambda: S(R(3, 4), 2, 0))
fn_and_method("flip", lambda: S(R(3, 4), (0,)))
fn_and_method("roll", lambda: S(R(3, 4), 1, 0))
fn_and_method("tril", lambda: S(R(3, 3)))
fn_and_method("triu", lambda: S(R(3, 3)))
fn_and_method("diagonal", lambda: S(R(3, 3)))
for _name in ("cat", "concat", "concatenate"):
    op(f"torch.{_name}", lambda: S([R(3, 4), R(3, 4)]), lambda: S([R(3, 4), R(3, 4)], 1))
op("torch.stack", lambda: S([R(3, 4), R(3, 4)]), lambda: S([R(3, 4), R(3, 4)], 1))
fn_and_method("split", lambda: S(R(4, 3), 2), lambda: S(R(4, 3), [1, 3]))
fn_and_method("chunk", lambda: S(R(4, 3), 2))
fn_and_method("unbind", lambda: S(R(4, 3)))
fn_and_method("narrow", lambda: S(R(3, 4), 0, 0, 2))
fn_and_method("select", lambda: S(R(3, 4), 0, 1))
fn_and_method("gather", lambda: S(R(3, 4), 1, I(4, 3, 2)))
fn_and_method("take_along_dim", lambda: S(R(3, 4), I(4, 3, 2), 1))
fn_and_method("index_select", lambda: S(R(3, 4), 0, I(3, 2)))
fn_and_method("masked_fill", lambda: S(R(3, 4), M(3, 4), 0.0))
fn_and_method("masked_select", lambda: S(R(3, 4), M(3, 4)))
fn_and_method("scatter", lambda: S(R(3, 4), 1, I(4, 3, 2), R(3, 2)))
fn_and_method("scatter_add", lambda: S(R(3, 4), 1, I(4, 3, 2), R(3, 2)))
fn_and_method("index_add", lambda: S(R(3, 4), 0, I(3, 2), R(2, 4)))
# (a message-passing layer's max and mean aggregation: `out.scatter_reduce(0, index, msgs, "amax")`)
fn_and_method("scatter_reduce", lambda: S(R(3, 4), 0, I(3, 5, 4), R(5, 4), "amax", include_self=False),
              lambda: S(R(3, 4), 0, I(3, 5, 4), R(5, 4), "mean"))
op("torch.Tensor.to", lambda: S(R(3, 4), torch.float64))
op("torch.Tensor.double", lambda: S(R(3, 4)))
op("torch.Tensor.type_as", lambda: S(R(3, 4), NoGrad(R(2).double())))

# ---- torch.nn.functional: activations
FN = "torch.nn.functional"
for _name in ("relu", "relu6", "elu", "selu", "celu", "gelu", "silu", "mish", "softplus", "sigmoid",
              "tanh", "hardtanh", "hardswish", "hardsigmoid", "logsigmoid", "softsign", "tanhshrink",
              "hardshrink", "softshrink", "leaky_relu", "glu"):
    op(f"{FN}.{_name}", lambda: S(R(3, 4)))
op(f"{FN}.leaky_relu", lambda: S(R(3, 4), 0.2))
op(f"{FN}.gelu", lambda: S(R(3, 4), approximate="tanh"))
op(f"{FN}.softplus", lambda: S(R(3, 4), 2.0, 10.0))
op(f"{FN}.hardtanh", lambda: S(R(3, 4), -0.5, 0.5))
op(f"{FN}.threshold", lambda: S(R(3, 4), 0.1, 0.0))
op(f"{FN}.rrelu", lambda: S(R(3, 4), training=True))
op(f"{FN}.prelu", lambda: S(R(2, 3, 4), R(3)))
op("torch.prelu", lambda: S(R(2, 3, 4), R(3)))
for _name in ("softmax", "log_softmax", "softmin"):
    op(f"{FN}.{_name}", lambda: S(R(3, 4), -1))
for _name in ("softmax", "log_softmax"):
    fn_and_method(_name, lambda: S(R(3, 4), -1))
op(f"{FN}.dropout", lambda: S(R(3, 4), 0.5, True))
op("torch.dropout", lambda: S(R(3, 4), 0.5, True))
op(f"{FN}.dropout1d", lambda: S(R(2, 3, 4), 0.5, True))
op(f"{FN}.dropout2d", lambda: S(R(2, 3, 4, 4), 0.5, True))
op(f"{FN}.alpha_dropout", lambda: S(R(3, 4), 0.5, True))

# ---- torch.nn.functional: layers
op(f"{FN}.linear", lambda: S(R(2, 4), R(3, 4), R(3)), lambda: S(R(2, 4), R(3, 4)))
op(f"{FN}.bilinear", lambda: S(R(2, 4), R(2, 5), R(3, 4, 5), R(3)))
op(f"{FN}.conv1d", lambda: S(R(1, 2, 8), R(3, 2, 3), R(3)))
op(f"{FN}.conv2d", lambda: S(R(1, 2, 6, 6), R(3, 2, 3, 3), R(3)))
op(f"{FN}.conv3d", lambda: S(R(1, 2, 5, 5, 5), R(3, 2, 3, 3, 3), R(3)))
op(f"{FN}.conv_transpose1d", lambda: S(R(1, 2, 5), R(2, 3, 3), R(3)))
op(f"{FN}.conv_transpose2d", lambda: S(R(1, 2, 4, 4), R(2, 3, 3, 3), R(3)))
op("torch.conv2d", lambda: S(R(1, 2, 6, 6), R(3, 2, 3, 3), R(3)))
op(f"{FN}.batch_norm", lambda: S(R(4, 3), NoGrad(R(3)), NoGrad(P(3)), R(3), R(3), True),
   lambda: S(R(4, 3), NoGrad(R(3)), NoGrad(P(3)), R(3), R(3), False))
op(f"{FN}.layer_norm", lambda: S(R(2, 3, 4), (4,), R(4), R(4)))
op(f"{FN}.group_norm", lambda: S(R(2, 4, 3, 3), 2, R(4), R(4)))
op(f"{FN}.instance_norm", lambda: S(R(2, 3, 4, 4), None, None, R(3), R(3)))
op(f"{FN}.local_response_norm", lambda: S(R(2, 4, 3, 3), 2))
op(f"{FN}.rms_norm", lambda: S(R(2, 3, 4), (4,), R(4)))
op(f"{FN}.embedding", lambda: S(I(10, 2, 3), R(10, 4)))
op(f"{FN}.normalize", lambda: S(R(3, 4)), lambda: S(R(3, 4), 2.0, 1))
op(f"{FN}.avg_pool1d", lambda: S(R(1, 2, 8), 2))
op(f"{FN}.avg_pool2d", lambda: S(R(1, 2, 4, 4), 2))
op(f"{FN}.max_pool1d", lambda: S(R(1, 2, 8), 2))
op(f"{FN}.max_pool2d", lambda: S(R(1, 2, 4, 4), 2))
op(f"{FN}.adaptive_avg_pool1d", lambda: S(R(1, 2, 8), 2))
op(f"{FN}.adaptive_avg_pool2d", lambda: S(R(1, 2, 4, 4), 1), lambda: S(R(1, 2, 4, 4), 2))
op(f"{FN}.adaptive_max_pool2d", lambda: S(R(1, 2, 4, 4), 1))
op(f"{FN}.interpolate", lambda: S(R(1, 2, 3, 3), scale_factor=2),
   lambda: S(R(1, 2, 3, 3), scale_factor=2, mode="bilinear"))
op(f"{FN}.pad", lambda: S(R(1, 2, 3, 3), (1, 1)), lambda: S(R(1, 2, 3, 3), (1, 1, 1, 1), mode="reflect"))
op(f"{FN}.pixel_shuffle", lambda: S(R(1, 4, 2, 2), 2))
op(f"{FN}.unfold", lambda: S(R(1, 2, 4, 4), 2))
op(f"{FN}.cosine_similarity", lambda: S(R(3, 4), R(3, 4)))
op(f"{FN}.pairwise_distance", lambda: S(R(3, 4), R(3, 4)))
op(f"{FN}.scaled_dot_product_attention", lambda: S(R(1, 2, 3, 4), R(1, 2, 3, 4), R(1, 2, 3, 4)),
   lambda: S(R(1, 2, 3, 4), R(1, 2, 3, 4), R(1, 2, 3, 4), is_causal=True))

# ---- torch.nn.functional: losses
op(f"{FN}.cross_entropy", lambda: S(R(3, 5), I(5, 3)), lambda: S(R(3, 5), U(3, 5)))
op(f"{FN}.nll_loss", lambda: S(R(3, 5), I(5, 3)))
for _name in ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"):
    op(f"{FN}.{_name}", lambda: S(R(3, 4), R(3, 4)))
op(f"{FN}.binary_cross_entropy", lambda: S(U(3, 4), U(3, 4)))
op(f"{FN}.binary_cross_entropy_with_logits", lambda: S(R(3, 4), U(3, 4)))
op(f"{FN}.kl_div", lambda: S(R(3, 4), U(3, 4), reduction="batchmean"))


# ---- modules: name -> sample building (module, positional args)
ModSample = Callable[[], "tuple[nn.Module, tuple]"]
MODULES: list[tuple[str, ModSample]] = []


def mod(name: str, make: ModSample) -> None:
    MODULES.append((name, make))


_X3 = lambda: (R(2, 3, 4),)  # noqa: E731
mod("Linear", lambda: (nn.Linear(4, 3), (R(2, 4),)))
mod("Bilinear", lambda: (nn.Bilinear(4, 5, 3), (R(2, 4), R(2, 5))))
mod("Conv1d", lambda: (nn.Conv1d(2, 3, 3), (R(1, 2, 8),)))
mod("Conv2d", lambda: (nn.Conv2d(2, 3, 3), (R(1, 2, 6, 6),)))
mod("Conv3d", lambda: (nn.Conv3d(2, 3, 3), (R(1, 2, 5, 5, 5),)))
mod("ConvTranspose1d", lambda: (nn.ConvTranspose1d(2, 3, 3), (R(1, 2, 5),)))
mod("ConvTranspose2d", lambda: (nn.ConvTranspose2d(2, 3, 3), (R(1, 2, 4, 4),)))
mod("BatchNorm1d", lambda: (nn.BatchNorm1d(3), (R(4, 3),)))
mod("BatchNorm2d", lambda: (nn.BatchNorm2d(3), (R(2, 3, 4, 4),)))
mod("BatchNorm3d", lambda: (nn.BatchNorm3d(3), (R(2, 3, 2, 3, 3),)))
mod("LayerNorm", lambda: (nn.LayerNorm(4), _X3()))
mod("RMSNorm", lambda: (nn.RMSNorm(4), _X3()))
mod("GroupNorm", lambda: (nn.GroupNorm(2, 4), (R(2, 4, 3, 3),)))
mod("InstanceNorm1d", lambda: (nn.InstanceNorm1d(3), (R(2, 3, 5),)))
mod("InstanceNorm2d", lambda: (nn.InstanceNorm2d(3), (R(2, 3, 4, 4),)))
mod("LocalResponseNorm", lambda: (nn.LocalResponseNorm(2), (R(2, 4, 3, 3),)))
mod("Embedding", lambda: (nn.Embedding(10, 4), (I(10, 2, 3),)))
mod("EmbeddingBag", lambda: (nn.EmbeddingBag(10, 4), (I(10, 2, 3),)))
mod("Dropout", lambda: (nn.Dropout(0.5), (R(2, 3, 4, 4),)))
mod("Dropout1d", lambda: (nn.Dropout1d(0.5), (R(2, 3, 4),)))
mod("Dropout2d", lambda: (nn.Dropout2d(0.5), (R(2, 3, 4, 4),)))
mod("AlphaDropout", lambda: (nn.AlphaDropout(0.5), (R(2, 3, 4),)))
for _name in ("ReLU", "ReLU6", "LeakyReLU", "PReLU", "ELU", "SELU", "CELU", "GELU", "SiLU", "Mish",
              "Softplus", "Hardtanh", "Hardswish", "Hardsigmoid", "Sigmoid", "Tanh", "LogSigmoid",
              "Softsign", "Tanhshrink", "Hardshrink", "Softshrink", "Identity", "Flatten", "RReLU"):
    mod(_name, lambda _name=_name: (getattr(nn, _name)(), _X3()))
mod("GLU", lambda: (nn.GLU(), _X3()))
mod("Threshold", lambda: (nn.Threshold(0.1, 0.0), _X3()))
for _name in ("Softmax", "LogSoftmax", "Softmin"):
    mod(_name, lambda _name=_name: (getattr(nn, _name)(dim=-1), _X3()))
mod("Unflatten", lambda: (nn.Unflatten(2, (2, 2)), _X3()))
mod("MaxPool1d", lambda: (nn.MaxPool1d(2), (R(1, 2, 8),)))
mod("MaxPool2d", lambda: (nn.MaxPool2d(2), (R(1, 2, 4, 4),)))
mod("AvgPool1d", lambda: (nn.AvgPool1d(2), (R(1, 2, 8),)))
mod("AvgPool2d", lambda: (nn.AvgPool2d(2), (R(1, 2, 4, 4),)))
mod("AdaptiveAvgPool1d", lambda: (nn.AdaptiveAvgPool1d(2), (R(1, 2, 8),)))
mod("AdaptiveAvgPool2d", lambda: (nn.AdaptiveAvgPool2d(1), (R(1, 2, 4, 4),)))
mod("AdaptiveAvgPool2d", lambda: (nn.AdaptiveAvgPool2d(2), (R(1, 2, 4, 4),)))
mod("AdaptiveMaxPool2d", lambda: (nn.AdaptiveMaxPool2d(1), (R(1, 2, 4, 4),)))
mod("Upsample", lambda: (nn.Upsample(scale_factor=2), (R(1, 2, 3, 3),)))
mod("ZeroPad2d", lambda: (nn.ZeroPad2d(1), (R(1, 2, 3, 3),)))
mod("ReflectionPad2d", lambda: (nn.ReflectionPad2d(1), (R(1, 2, 3, 3),)))
mod("PixelShuffle", lambda: (nn.PixelShuffle(2), (R(1, 4, 2, 2),)))
mod("LSTM", lambda: (nn.LSTM(4, 5), (R(3, 2, 4),)))
mod("GRU", lambda: (nn.GRU(4, 5), (R(3, 2, 4),)))
mod("RNN", lambda: (nn.RNN(4, 5), (R(3, 2, 4),)))
mod("MultiheadAttention", lambda: (nn.MultiheadAttention(4, 2), (R(3, 2, 4), R(3, 2, 4), R(3, 2, 4))))
mod("TransformerEncoderLayer", lambda: (nn.TransformerEncoderLayer(4, 2, dim_feedforward=8), (R(3, 2, 4),)))
mod("CosineSimilarity", lambda: (nn.CosineSimilarity(), (R(3, 4), R(3, 4))))
mod("CrossEntropyLoss", lambda: (nn.CrossEntropyLoss(), (R(3, 5), I(5, 3))))
mod("NLLLoss", lambda: (nn.NLLLoss(), (R(3, 5), I(5, 3))))
for _name in ("MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss"):
    mod(_name, lambda _name=_name: (getattr(nn, _name)(), (R(3, 4), R(3, 4))))
mod("BCELoss", lambda: (nn.BCELoss(), (U(3, 4), U(3, 4))))
mod("BCEWithLogitsLoss", lambda: (nn.BCEWithLogitsLoss(), (R(3, 4), U(3, 4))))
mod("KLDivLoss", lambda: (nn.KLDivLoss(reduction="batchmean"), (R(3, 4), U(3, 4))))

# Methods with a trailing "_" that do not change tensor data for autograd purposes.
NOT_DATA_EDITS = {"requires_grad_", "share_memory_", "retain_grad", "record_stream"}


# --------------------------------------------------------------------------------------------
# Probing machinery


def resolve(qualname: str) -> Callable:
    owner, _, name = qualname.rpartition(".")
    if owner == "torch.Tensor":
        return getattr(torch.Tensor, name)
    return getattr(importlib.import_module(owner), name)


def _tensors(value: Any) -> list[torch.Tensor]:
    """Tensors of one positional argument: a tensor, or a list/tuple of tensors (``torch.cat([a, b])``)."""
    if isinstance(value, NoGrad):
        return [value.t]
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, torch.Tensor) for v in value):
        return list(value)
    return []


def _flat_tensors(value: Any) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _flat_tensors(v)]
    return []


def _grad_capable(value: Any) -> bool:
    ts = _tensors(value)
    return bool(ts) and not isinstance(value, NoGrad) and all(t.is_floating_point() for t in ts)


def _nonleaf(t: torch.Tensor) -> torch.Tensor:
    base = t.clone().requires_grad_(True)
    return base * 1


def _materialize(value: Any, grad: bool) -> Any:
    if isinstance(value, NoGrad):
        return value.t
    if not grad:
        return value
    if isinstance(value, torch.Tensor):
        return _nonleaf(value)
    return type(value)(_nonleaf(t) for t in value)


def _bump(t: torch.Tensor) -> None:
    """An in-place edit that leaves the data unchanged but bumps the version counter."""
    if t.is_floating_point() or t.is_complex():
        t.add_(0)
    else:
        t.copy_(t.clone())


Build = Callable[[frozenset], "tuple[Callable[[], Any], list]"]
"""Given the positions that require grad, a fresh (call, positional args)."""


def _run(build: Build, grad_pos: frozenset, edit: tuple | None) -> tuple[bool, int]:
    """Run once; return (backward raised the in-place error, number of differentiable outputs).

    edit: None, ("in", position, element) or ("out", k).
    """
    call, args = build(grad_pos)
    torch.manual_seed(1)
    out = call()
    diff = [o for o in _flat_tensors(out) if o.requires_grad]
    if not diff:
        raise ProbeError("no differentiable output")
    if edit is not None:
        try:
            if edit[0] == "in":
                _bump(_tensors(args[edit[1]])[edit[2]])
            else:
                if edit[1] >= len(diff):
                    return False, len(diff)
                _bump(diff[edit[1]])
        except RuntimeError as exc:
            # e.g. outputs of split/chunk: "a view ... returned by a function that returns
            # multiple views ... not allowed to be modified inplace". Not a saved tensor.
            note(f"edit {edit} refused: {str(exc).splitlines()[0][:120]}")
            return False, len(diff)
    try:
        loss = sum(o.sum() for o in diff)
        loss.backward()
    except RuntimeError as exc:
        if INPLACE_ERROR in str(exc):
            return True, len(diff)
        if edit is not None and MULTI_VIEW_ERROR in str(exc):
            note(f"edit {edit}: backward refused, multi-output view (not a saved tensor)")
            return False, len(diff)
        raise
    return False, len(diff)


def _probe_config(build: Build, grad_pos: frozenset, edits: list[tuple[int, int]],
                  first_output_only: bool = False) -> dict:
    _, n_out = _run(build, grad_pos, None)  # baseline: must succeed
    inputs = sorted({pos for pos, elem in edits if _run(build, grad_pos, ("in", pos, elem))[0]})
    outs = range(1) if first_output_only else range(n_out)
    output = any(_run(build, grad_pos, ("out", k))[0] for k in outs)
    return {"inputs": inputs, "output": output}


def _op_build(fn: Callable, sample: Sample) -> Build:
    def build(grad_pos: frozenset):
        torch.manual_seed(0)
        raw_args, kwargs = sample()
        args = [_materialize(a, i in grad_pos) for i, a in enumerate(raw_args)]
        return (lambda: fn(*args, **kwargs)), args
    return build


def probe_sample(fn: Callable, sample: Sample) -> dict:
    torch.manual_seed(0)
    raw_args, _ = sample()
    edits = [(i, j) for i, a in enumerate(raw_args) for j in range(len(_tensors(a)))]
    capable = [i for i, a in enumerate(raw_args) if _grad_capable(a)]
    build = _op_build(fn, sample)
    usable = []
    for i in capable:
        try:
            _run(build, frozenset([i]), None)
            usable.append(i)
        except Exception as exc:  # noqa: BLE001 - e.g. not differentiable w.r.t. this input
            note(f"input {i} cannot require grad alone: {type(exc).__name__}: {str(exc).splitlines()[0][:100]}")
    if not usable:
        raise ProbeError("no input can require grad")
    result = {"all": _probe_config(build, frozenset(usable), edits), "when": {}}
    for i in usable:
        result["when"][str(i)] = _probe_config(build, frozenset([i]), edits)
    return result


def _merge(a: dict, b: dict) -> dict:
    return {"inputs": sorted(set(a["inputs"]) | set(b["inputs"])), "output": a["output"] or b["output"]}


def _merge_results(a: dict, b: dict) -> dict:
    when = dict(a["when"])
    for k, v in b["when"].items():
        when[k] = _merge(when[k], v) if k in when else v
    return {"all": _merge(a["all"], b["all"]), "when": dict(sorted(when.items(), key=lambda kv: int(kv[0])))}


def probe_ops(cross_check: bool) -> dict:
    """Per qualname: "all"/"when" merged by union over its sample calls. When sample calls of
    different argument shapes disagree (``x ** 2`` saves only x; ``x ** y`` also saves the
    output), the per-shape results are kept too, under "variants": each with "nargs" (number of
    positional arguments) and "tensors" (positions holding tensors), so a caller that knows
    which arguments are tensors can pick the precise entry."""
    by_shape: dict[str, dict[tuple[int, tuple[int, ...]], dict]] = {}
    failed: set[str] = set()
    for qualname, sample in OPS:
        if qualname in failed:
            continue
        try:
            fn = resolve(qualname)
        except (AttributeError, ImportError) as exc:
            warn(f"skipping {qualname}: not in this torch ({exc})")
            failed.add(qualname)
            continue
        try:
            res = probe_sample(fn, sample)
        except Exception as exc:  # noqa: BLE001 - skip, never crash
            warn(f"skipping one sample of {qualname}: {type(exc).__name__}: {str(exc).splitlines()[0][:160]}")
            continue
        if cross_check:
            _cross_check(qualname, fn, sample, res)
        torch.manual_seed(0)
        raw_args, _ = sample()
        shape = (len(raw_args), tuple(i for i, a in enumerate(raw_args) if _tensors(a)))
        shapes = by_shape.setdefault(qualname, {})
        if shape in shapes and shapes[shape] != res:
            note(f"{qualname}: samples of shape {shape} differ, merged by union: {shapes[shape]['all']} / {res['all']}")
        shapes[shape] = _merge_results(shapes[shape], res) if shape in shapes else res
    results: dict[str, dict] = {}
    for qualname, shapes in sorted(by_shape.items()):
        ordered = sorted(shapes.items())
        merged = ordered[0][1]
        for _, res in ordered[1:]:
            merged = _merge_results(merged, res)
        entry = dict(merged)
        if any(res["all"] != merged["all"] or any(v != merged["when"][k] for k, v in res["when"].items())
               for _, res in ordered):
            note(f"{qualname}: argument shapes differ, union + variants: "
                 f"{[(s, r['all']) for s, r in ordered]}")
            entry["variants"] = [{"nargs": n, "tensors": list(t), **res} for (n, t), res in ordered]
        results[qualname] = entry
    return results


def _cross_check(qualname: str, fn: Callable, sample: Sample, res: dict) -> None:
    """Compare with saved_tensors_hooks: which inputs/outputs share storage with a packed tensor."""
    build = _op_build(fn, sample)
    grad_pos = frozenset(int(k) for k in res["when"])
    packed: list[int] = []

    def pack(t: torch.Tensor) -> torch.Tensor:
        with contextlib.suppress(Exception):
            packed.append(t.untyped_storage().data_ptr())
        return t

    call, args = build(grad_pos)
    torch.manual_seed(1)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = call()
    ptrs = set(packed)
    hinputs = sorted({i for i, a in enumerate(args) for t in _tensors(a)
                      if t.numel() and t.untyped_storage().data_ptr() in ptrs})
    houtput = any(o.numel() and o.untyped_storage().data_ptr() in ptrs
                  for o in _flat_tensors(out) if o.requires_grad)
    if hinputs != res["all"]["inputs"] or houtput != res["all"]["output"]:
        print(f"gen_saved_tensors: cross-check {qualname}: version test {res['all']}, "
              f"saved_tensors_hooks inputs={hinputs} output={houtput}", file=sys.stderr)


def probe_modules() -> dict:
    """Per module class: "input" = editing the first positional input (the forward's ``input``)
    after the forward breaks backward; "inputs" = all positional inputs for which that holds
    (e.g. a loss's target); "output" = editing the first output breaks backward. Several samples
    of one class are merged by union."""
    results: dict[str, dict] = {}
    for name, make in MODULES:
        qualname = f"torch.nn.{name}"
        cls = getattr(nn, name, None)
        if cls is None:
            warn(f"skipping {qualname}: not in this torch")
            continue
        inplace_kwarg = "inplace" in inspect.signature(cls).parameters

        def build(grad_pos: frozenset, make: ModSample = make, inplace: bool = False):
            torch.manual_seed(0)
            module, raw_args = make()
            module.train()
            if inplace:
                module.inplace = True
            args = [_materialize(a, i in grad_pos) for i, a in enumerate(raw_args)]
            return (lambda: module(*args)), args

        try:
            torch.manual_seed(0)
            sample, raw_args = make()
            # Whether an instance holds trainable parameters: a loss or an activation does not,
            # so the linter does not count it as a model whose weights a cut starves.
            has_parameters = any(p.requires_grad for p in sample.parameters())
            edits = [(i, 0) for i, a in enumerate(raw_args) if isinstance(a, torch.Tensor)]
            grad_pos = frozenset(i for i, a in enumerate(raw_args) if _grad_capable(a))
            try:
                _run(build, grad_pos, None)
            except Exception:  # noqa: BLE001 - e.g. a target that cannot require grad
                grad_pos = frozenset(i for i in grad_pos if i == 0)
            res = _probe_config(build, grad_pos, edits, first_output_only=True)
        except Exception as exc:  # noqa: BLE001
            warn(f"skipping a sample of {qualname}: {type(exc).__name__}: {str(exc).splitlines()[0][:160]}")
            continue
        entry = {"input": 0 in res["inputs"], "inputs": res["inputs"], "output": res["output"],
                 "inplace_kwarg": inplace_kwarg, "parameters": has_parameters}
        if inplace_kwarg:
            # In place, a module has only its output left to save: LeakyReLU(inplace=True)
            # saves it where LeakyReLU() saves its input; Dropout(inplace=True) saves a mask.
            try:
                inplace_build = functools.partial(build, inplace=True)
                entry["inplace_output"] = _probe_config(inplace_build, grad_pos, [], first_output_only=True)["output"]
            except Exception as exc:  # noqa: BLE001
                warn(f"{qualname}: cannot probe inplace=True: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")
        if qualname in results:
            old = results[qualname]
            if (old["inputs"], old["output"]) != (entry["inputs"], entry["output"]):
                note(f"{qualname}: samples differ, merged by union: {old} / {entry}")
            entry = {"input": old["input"] or entry["input"],
                     "inputs": sorted(set(old["inputs"]) | set(entry["inputs"])),
                     "output": old["output"] or entry["output"], "inplace_kwarg": inplace_kwarg,
                     "parameters": old["parameters"] or entry["parameters"],
                     **({"inplace_output": old.get("inplace_output", False) or entry.get("inplace_output", False)}
                        if inplace_kwarg else {})}
        results[qualname] = entry
    return dict(sorted(results.items()))


# ---- in-place methods

_RECEIVERS: list[Callable[[], torch.Tensor]] = [lambda: R(3, 3), lambda: I(3, 3, 3), lambda: M(3, 3)]
_PATTERNS: list[Callable[[], tuple]] = [
    lambda: (),
    lambda: (R(3, 3),),
    lambda: (R(4, 4),),
    lambda: (I(3, 3, 3),),
    lambda: (M(3, 3),),
    lambda: (0.5,),
    lambda: (2,),
    lambda: (0,),
    lambda: (0, 1),
    lambda: (0.1, 0.9),
    lambda: (R(3, 3), R(3, 3)),
    lambda: (R(3, 3), 0.5),
    lambda: (M(3, 3), 0.5),
    lambda: (M(3, 3), R(3, 3)),
    lambda: (0, I(3, 2), R(2, 3)),
    lambda: (0, I(3, 2), 0.5),
    lambda: (1, I(3, 3, 3), R(3, 3)),
    lambda: (1, I(3, 3, 3), 0.5),
    lambda: (1, I(3, 3, 3), R(3, 3), "sum"),
    lambda: ((I(3, 2),), R(2, 3)),
    lambda: (I(9, 2), R(2)),
    lambda: ((4, 4),),
    lambda: ((3, 3), (1, 1)),
    lambda: (2, 0, 1.0),
    lambda: (lambda v: v + 1,),
    lambda: (R(3, 3), lambda a, b: a + 1),
    lambda: (R(3, 3), R(3, 3), lambda a, b, c: a + 1),
]


def _changed(before: torch.Tensor, after: torch.Tensor) -> bool:
    """Whether data or metadata differ (a method may mutate without bumping the version counter)."""
    if before.shape != after.shape or before.stride() != after.stride() or before.dtype != after.dtype:
        return True
    return not torch.equal(before, after)


def _schema_mutates_self(name: str) -> bool:
    packet = getattr(torch.ops.aten, name, None)
    if packet is None:
        return False
    for overload in packet.overloads():
        args = getattr(packet, overload)._schema.arguments
        if args and args[0].alias_info is not None and args[0].alias_info.is_write:
            return True
    return False


def probe_inplace_methods() -> list[str]:
    """Public Tensor methods named ``<name>_`` that modify their receiver in place.

    Each candidate is called on fresh float/int64/bool receivers with a list of sample argument
    patterns; it is kept if some call bumps the receiver's ``_version`` (what autograd checks) or
    changes its data/metadata. A method no sample call fits is kept when its aten schema marks
    ``self`` as written (``Tensor(a!) self``)."""
    names = sorted(n for n in dir(torch.Tensor)
                   if re.fullmatch(r"[a-z](?:[a-z0-9_]*[a-z0-9])?_", n) and callable(getattr(torch.Tensor, n, None)))
    found = []
    for name in names:
        if name in NOT_DATA_EDITS:
            continue
        called = mutated = False
        silent = True  # mutated without bumping _version
        for receiver in _RECEIVERS:
            for pattern in _PATTERNS:
                torch.manual_seed(0)
                t = receiver()
                snapshot = t.clone()
                args = pattern()
                before = t._version
                try:
                    getattr(t, name)(*args)
                except Exception:  # noqa: BLE001 - wrong sample arguments for this method
                    continue
                called = True
                if t._version != before:
                    mutated, silent = True, False
                    break
                if _changed(snapshot, t):
                    mutated = True
            if mutated and not silent:
                break
        if mutated:
            if silent:
                note(f"{name}: changes the receiver WITHOUT bumping _version (autograd cannot detect it); kept")
            found.append(name)
        elif not called and _schema_mutates_self(name):
            note(f"{name}: no sample call worked; aten schema marks self as written (Tensor(a!)), kept")
            found.append(name)
        else:
            note(f"{name}: {'called, receiver unchanged' if called else 'not callable, no mutable schema'}; dropped")
    return found


# --------------------------------------------------------------------------------------------


def generate(cross_check: bool = False) -> dict:
    torch.set_num_threads(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            "generated_by": GENERATED_BY,
            "torch_version": str(torch.__version__),
            "ops": probe_ops(cross_check),
            "modules": probe_modules(),
            "inplace_methods": probe_inplace_methods(),
            "inplace_arguments": inplace_arguments(),
        }


def inplace_arguments() -> dict[str, int]:
    """Where ``inplace`` may be passed positionally: qualified name -> index among the positional
    arguments, for every function of ``torch.nn.functional`` and every ``torch.nn`` module class
    that takes it (``F.leaky_relu(x, 0.1, True)``, ``nn.Dropout(0.5, True)``). Read from the
    signatures of the installed torch."""
    found: dict[str, int] = {}
    candidates = [(f"torch.nn.functional.{n}", getattr(F, n), False) for n in dir(F) if not n.startswith("_")]
    candidates += [(f"torch.nn.{n}", getattr(nn, n), True) for n in dir(nn) if n[:1].isupper()]
    for qualname, obj, is_class in candidates:
        if not callable(obj) or (is_class and not (isinstance(obj, type) and issubclass(obj, nn.Module))):
            continue
        try:
            params = list(inspect.signature(obj).parameters.values())
        except (TypeError, ValueError):  # builtins without a signature
            continue
        positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if "inplace" in positional:
            found[qualname] = positional.index("inplace")
    return dict(sorted(found.items()))


def dumps(data: dict) -> str:
    return json.dumps(data, sort_keys=True, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    global VERBOSE
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help=f"default: {DEFAULT_OUTPUT}")
    parser.add_argument("--cross-check", action="store_true",
                        help="also compare with torch.autograd.graph.saved_tensors_hooks (reports on stderr)")
    parser.add_argument("-v", "--verbose", action="store_true")
    ns = parser.parse_args(argv)
    VERBOSE = ns.verbose
    start = time.monotonic()
    data = generate(cross_check=ns.cross_check)
    ns.output.parent.mkdir(parents=True, exist_ok=True)
    ns.output.write_text(dumps(data), encoding="utf-8")
    print(f"gen_saved_tensors: wrote {ns.output} ({len(data['ops'])} ops, {len(data['modules'])} modules, "
          f"{len(data['inplace_methods'])} in-place methods, torch {data['torch_version']}, "
          f"{time.monotonic() - start:.1f}s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The measured return-type table (gradlint/data/torch_types.json) and its loader.

The facts checked here are PyTorch semantics as its documentation states them (integer and bool
results never require grad; ``max(x, dim)`` returns differentiable values and integer indices;
``item()`` returns a Python number): the table itself is generated from torch by
tools/gen_torch_types.py, never typed in.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

from gradlint.analysis import torch_types

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "gradlint" / "data" / "torch_types.json"
GENERATOR = REPO / "tools" / "gen_torch_types.py"

HAS_TORCH = importlib.util.find_spec("torch") is not None
KINDS = {"tensor", "tensors", "number", "none", "other"}


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


# (a) the loader never needs torch


def test_loader_does_not_import_torch():
    code = textwrap.dedent(
        """
        import sys

        class NoTorch:
            def find_spec(self, name, path=None, target=None):
                if name == "torch" or name.startswith("torch."):
                    raise ImportError("the torch_types loader imported torch")
                return None

        sys.meta_path.insert(0, NoTorch())
        from gradlint.analysis import torch_types
        assert torch_types.result_of("torch.argmax") == "tensor"
        assert torch_types.carries_grad("Tensor.argmax") is False
        assert torch_types.data_version()
        assert "torch" not in sys.modules, "loader imported torch"
        print("ok")
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=_env(),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_file_shape():
    data = json.loads(DATA.read_text(encoding="utf-8"))
    assert data["generated_by"] == "tools/gen_torch_types.py"
    assert set(data) == {"generated_by", "torch_version", "names"}
    assert list(data["names"]) == sorted(data["names"])
    for name, entry in data["names"].items():
        assert name.startswith(("torch.", "Tensor.")), name
        assert entry["result"] in KINDS, name
        assert isinstance(entry["grad"], bool), name
        if "results" in entry:
            assert entry["result"] in entry["results"] and set(entry["results"]) <= KINDS, name
        if "grad_outputs" in entry:
            assert entry["result"] == "tensors" and entry["grad"] == any(entry["grad_outputs"]), name
        if entry["result"] not in ("tensor", "tensors"):
            assert entry["grad"] is False, name
        for position in entry.get("index_args", ()):
            assert isinstance(position, int) and position >= 0, name
        for keyword in entry.get("index_keywords", ()):
            assert isinstance(keyword, str), name
        for position in entry.get("number_args", ()):
            assert isinstance(position, int) and position >= 0, name
        for keyword in entry.get("number_keywords", ()):
            assert isinstance(keyword, str), name
    assert torch_types.data_version() == data["torch_version"]


# (b) facts of PyTorch that the measured data must show


@pytest.mark.parametrize("name", [
    "torch.argmax", "Tensor.argmax", "torch.argmin", "torch.argsort", "Tensor.argsort",
    "torch.eq", "Tensor.eq", "torch.gt", "torch.isnan", "torch.nonzero", "Tensor.nonzero",
    "torch.searchsorted", "torch.bucketize", "Tensor.long", "Tensor.bool", "Tensor.detach",
])
def test_integer_bool_and_detached_results_carry_no_grad(name):
    assert result_is_tensorish(name), name
    assert torch_types.carries_grad(name) is False, name


@pytest.mark.parametrize("name", [
    "torch.relu", "Tensor.relu", "torch.nn.functional.relu", "torch.matmul", "Tensor.matmul",
    "torch.sum", "Tensor.sum", "torch.mean", "torch.exp", "torch.nn.functional.linear",
    "torch.nn.functional.softmax", "torch.linalg.norm", "torch.fft.fft", "torch.special.expit",
    "Tensor.clone", "Tensor.view", "Tensor.to",
])
def test_differentiable_results_carry_grad(name):
    assert torch_types.result_of(name) == "tensor", name
    assert torch_types.carries_grad(name) is True, name


@pytest.mark.parametrize("name", [
    "Tensor.item", "Tensor.numel", "torch.numel", "Tensor.dim", "Tensor.size", "Tensor.nelement",
    "Tensor.element_size", "Tensor.is_contiguous", "Tensor.is_floating_point", "torch.is_tensor",
    "torch.equal", "torch.allclose",
])
def test_python_values(name):
    assert torch_types.result_of(name) == "number", name
    assert torch_types.carries_grad(name) is False, name


def test_tolist_is_not_a_tensor():
    assert torch_types.result_of("Tensor.tolist") == "other"
    assert torch_types.carries_grad("Tensor.tolist") is False


@pytest.mark.parametrize("name", ["torch.max", "Tensor.max", "torch.min", "torch.sort", "torch.topk",
                                  "Tensor.topk", "torch.kthvalue", "torch.median"])
def test_values_and_indices(name):
    # max(x, dim), min, sort, topk, kthvalue, median(x, dim): (values, indices)
    assert "tensors" in torch_types.result_kinds(name), name
    assert torch_types.carries_grad(name, 0) is True, name
    assert torch_types.carries_grad(name, 1) is False, name
    assert torch_types.carries_grad(name) is True, name


def test_max_is_also_a_plain_tensor():
    # torch.max(x) reduces to one tensor; torch.max(x, 1) returns (values, indices)
    assert torch_types.result_kinds("torch.max") == {"tensor", "tensors"}


def test_split_outputs_all_carry_grad():
    assert torch_types.result_of("torch.split") == "tensors"
    assert torch_types.carries_grad("torch.split", 0) is True


@pytest.mark.parametrize(("name", "position"), [
    ("torch.index_select", 2), ("Tensor.index_select", 1), ("torch.gather", 2), ("Tensor.gather", 1),
    ("torch.take_along_dim", 1), ("Tensor.scatter_add_", 1), ("Tensor.masked_fill", 0),
    ("torch.nn.functional.nll_loss", 1),
])
def test_index_and_mask_arguments(name, position):
    """Integer and bool tensor arguments (indices, masks), which autograd never differentiates."""
    positions, _ = torch_types.index_arguments(name)
    assert position in positions


@pytest.mark.parametrize(("name", "positions"), [
    ("torch.index_select", (2,)), ("Tensor.gather", (1,)), ("torch.add", ()), ("Tensor.mul", ()),
    ("torch.where", ()), ("torch.nn.functional.embedding_bag", ()),
])
def test_differentiable_arguments_are_not_indices(name, positions):
    """The tensor being read (``torch.index_select``'s first argument) is never listed, nor any
    argument of a function whose op_db samples follow a wrapper's order: ``F.embedding_bag``
    even accepts its weight and indices swapped, so its samples say nothing of its own order."""
    assert torch_types.index_arguments(name)[0] == positions


def test_spellings():
    assert torch_types.result_of("torch.Tensor.argmax") == torch_types.result_of("Tensor.argmax")
    assert torch_types.carries_grad("torch.Tensor.item") is False


def test_unknown_names():
    assert torch_types.result_of("torch.no_such_op") is None
    assert torch_types.result_kinds("Tensor.no_such_method") is None
    assert torch_types.carries_grad("torch.no_such_op") is None
    assert torch_types.carries_grad("torch.max", 7) is None


def result_is_tensorish(name: str) -> bool:
    return torch_types.result_of(name) in ("tensor", "tensors")


# (c) the committed file is what the generator produces with the installed torch


@pytest.mark.slow  # (the generator calls some 1,100 callables: about a minute)
@pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed")
def test_data_is_fresh(tmp_path):
    committed = json.loads(DATA.read_text(encoding="utf-8"))
    try:
        installed = metadata.version("torch")
    except metadata.PackageNotFoundError:
        installed = None
    if installed is not None and installed != committed["torch_version"]:
        pytest.skip(f"data measured with torch {committed['torch_version']}, installed {installed}")
    out = tmp_path / "torch_types.json"
    proc = subprocess.run([sys.executable, str(GENERATOR), "--output", str(out)], cwd=REPO, env=_env(),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    fresh = json.loads(out.read_text(encoding="utf-8"))
    if fresh["torch_version"] != committed["torch_version"]:
        pytest.skip(f"data measured with torch {committed['torch_version']}, installed {fresh['torch_version']}")
    assert out.read_text(encoding="utf-8") == DATA.read_text(encoding="utf-8"), (
        "gradlint/data/torch_types.json is stale: run .venv/bin/python tools/gen_torch_types.py"
    )


@pytest.mark.parametrize("name, position", [("torch.topk", 1), ("Tensor.topk", 0), ("torch.full", 0)])
def test_number_arguments_take_python_numbers(name, position):
    # `torch.topk(x, k)`: `k` is an int, so whatever computed it gives the values no history
    assert position in torch_types.number_arguments(name)[0], name


@pytest.mark.parametrize("name, position", [("torch.mul", 1), ("torch.where", 1), ("torch.lerp", 2)])
def test_tensor_arguments_are_no_number_arguments(name, position):
    assert position not in torch_types.number_arguments(name)[0], name

"""The measured saved-tensor table (gradlint/data/saved_tensors.json) and its loader.

The facts checked here are PyTorch autograd semantics (https://pytorch.org/docs/stable/notes/autograd.html#saved-tensors):
the table itself is generated from torch by tools/gen_saved_tensors.py, never typed in.
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

from gradlint.analysis import saves
from gradlint.analysis.flow import WEIGHT_FOR_INPUT

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "gradlint" / "data" / "saved_tensors.json"
GENERATOR = REPO / "tools" / "gen_saved_tensors.py"

HAS_TORCH = importlib.util.find_spec("torch") is not None


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


# (a) the loader never needs torch


def test_loader_does_not_import_torch():
    code = textwrap.dedent(
        """
        import sys
        from gradlint.analysis import saves
        assert saves.op_saves("torch.pow").inputs
        assert saves.module_saves("torch.nn.Linear") is not None
        assert saves.is_inplace_method("add_")
        assert saves.data_version()
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
    assert data["generated_by"] == "tools/gen_saved_tensors.py"
    assert set(data) >= {"generated_by", "torch_version", "ops", "modules", "inplace_methods"}
    for name, op in data["ops"].items():
        assert set(op["all"]) == {"inputs", "output"}, name
        assert all(k.isdigit() for k in op["when"]), name
    assert data["inplace_methods"] == sorted(data["inplace_methods"])
    assert saves.data_version() == data["torch_version"]


# (b) facts of PyTorch autograd that the measured data must show


def test_pow_saves_its_base():
    assert 0 in saves.op_saves("torch.pow").inputs
    assert 0 in saves.op_saves("operator.pow", [0]).inputs
    assert 0 in saves.op_saves("torch.Tensor.pow", [0]).inputs
    # u ** 2 does not save its result (only a tensor exponent does)
    assert saves.op_saves("operator.pow", [0], tensor_inputs=[0], nargs=2) == saves.Saves(frozenset({0}), False)


def test_a_reduction_along_a_dimension_saves_neither_its_input_nor_its_result():
    # `x.max()` saves both; `x.max(0)` (or `dim=0`, as the walker counts keywords) neither, and
    # more arguments than any measured shape (`x.max(0, keepdim=True)`) read as the longest one
    whole = saves.op_saves("torch.Tensor.max", [0], tensor_inputs=[0], nargs=1)
    assert whole.inputs == {0} and whole.output
    for nargs in (2, 3):
        assert saves.op_saves("torch.Tensor.max", [0], tensor_inputs=[0], nargs=nargs) == saves.Saves(frozenset(), False)


def test_add_saves_nothing():
    assert saves.op_saves("operator.add") == saves.Saves(frozenset(), False)
    assert not saves.op_saves("operator.add", [0])
    assert not saves.op_saves("torch.add")


@pytest.mark.parametrize("qualname", [
    "torch.exp", "torch.Tensor.exp", "torch.sigmoid", "torch.Tensor.sigmoid", "torch.tanh",
    "torch.nn.functional.sigmoid", "torch.nn.functional.tanh",
])
def test_output_saving_unary_ops(qualname):
    s = saves.op_saves(qualname)
    assert s is not None, qualname
    assert s.output and 0 not in s.inputs


@pytest.mark.parametrize("qualname", ["torch.relu", "torch.Tensor.relu", "torch.nn.functional.relu"])
def test_relu_saves_output(qualname):
    s = saves.op_saves(qualname)
    assert s.output and not s.inputs


def test_mul_saves_the_other_operand():
    only_x = saves.op_saves("operator.mul", [0])
    assert 1 in only_x.inputs and 0 not in only_x.inputs and not only_x.output
    only_y = saves.op_saves("operator.mul", [1])
    assert only_y.inputs == frozenset({0})
    assert saves.op_saves("operator.mul").inputs == frozenset({0, 1})


def test_no_grad_input_saves_nothing():
    assert saves.op_saves("operator.mul", []) == saves.Saves(frozenset(), False)


def test_unknown_names():
    assert saves.op_saves("torch.no_such_op") is None
    assert saves.module_saves("torch.nn.NoSuchModule") is None


@pytest.mark.parametrize("name", ["torch.nn.Linear", "torch.nn.Conv2d", "torch.nn.BatchNorm2d"])
def test_layers_save_input_not_output(name):
    m = saves.module_saves(name)
    assert m is not None
    assert m.input and not m.output


def test_relu_module():
    m = saves.module_saves("torch.nn.ReLU")
    assert m.output and m.inplace_kwarg and not m.input


def test_inplace_methods():
    methods = saves.inplace_methods()
    for name in ("add_", "relu_", "zero_", "fill_", "copy_", "clamp_", "masked_fill_", "index_add_",
                 "scatter_", "sigmoid_", "uniform_", "normal_", "mul_", "t_"):
        assert name in methods, name
        assert saves.is_inplace_method(name)
    for name in ("requires_grad_", "share_memory_", "detach_", "retain_grad", "add", "relu"):
        assert name not in methods, name
        assert not saves.is_inplace_method(name)


# (c) the committed file is what the generator produces with the installed torch


# (regenerating the data from torch takes a quarter of a minute: `pytest -m slow`)
@pytest.mark.slow
@pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed")
def test_data_is_fresh(tmp_path):
    committed = json.loads(DATA.read_text(encoding="utf-8"))
    try:
        installed = metadata.version("torch")
    except metadata.PackageNotFoundError:
        installed = None
    if installed is not None and installed != committed["torch_version"]:
        pytest.skip(f"data measured with torch {committed['torch_version']}, installed {installed}")
    out = tmp_path / "saved_tensors.json"
    proc = subprocess.run([sys.executable, str(GENERATOR), "--output", str(out)], cwd=REPO, env=_env(),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    fresh = json.loads(out.read_text(encoding="utf-8"))
    if fresh["torch_version"] != committed["torch_version"]:
        pytest.skip(f"data measured with torch {committed['torch_version']}, installed {fresh['torch_version']}")
    assert out.read_text(encoding="utf-8") == DATA.read_text(encoding="utf-8"), (
        "gradlint/data/saved_tensors.json is stale: run .venv/bin/python tools/gen_saved_tensors.py"
    )


@pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed")
@pytest.mark.parametrize("qualname", sorted(WEIGHT_FOR_INPUT))
def test_layers_save_their_weight_only_for_their_input(qualname):
    """``flow.WEIGHT_FOR_INPUT``, measured: applied to an input without history, the layer's
    graph survives an in-place update of its weight; applied to one with history, it does not."""
    code = textwrap.dedent(
        f"""
        import torch
        name = {qualname.rsplit(".", 1)[1]!r}
        layer = {{"Linear": lambda: torch.nn.Linear(4, 3), "Embedding": lambda: torch.nn.Embedding(10, 3)}}[name]()
        shape = {{"Linear": (2, 4)}}
        def broken(requires):
            if name == "Embedding":
                if requires:
                    return True  # (indices never require grad: the weight is never saved for them)
                x = torch.tensor([1, 2, 3])
            else:
                x = torch.randn(*shape[name], requires_grad=requires)
            out = layer(x).sum()
            with torch.no_grad():
                layer.weight.add_(1.0)
            try:
                out.backward()
            except RuntimeError as err:
                assert "modified by an inplace operation" in str(err)
                return True
            return False
        assert not broken(False), "the weight was saved for an input without history"
        assert broken(True), "the weight was not saved for an input with history"
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=_env(), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed")
def test_a_convolution_saves_its_weight_whatever_its_input():
    """Why ``flow.WEIGHT_FOR_INPUT`` leaves convolutions out: measured, as above."""
    code = textwrap.dedent(
        """
        import torch
        conv = torch.nn.Conv2d(2, 3, 3)
        out = conv(torch.randn(1, 2, 6, 6)).sum()
        with torch.no_grad():
            conv.weight.add_(1.0)
        try:
            out.backward()
        except RuntimeError as err:
            assert "modified by an inplace operation" in str(err)
        else:
            raise AssertionError("the convolution did not save its weight")
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=_env(), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr

"""GL005's hint spells the out-of-place twin only where torch has one (``Tensor.add``, not
``Tensor.copy``)."""
from __future__ import annotations

from gradlint.engine import lint_source

SAVED = """\
import torch
w = torch.ones(3, requires_grad=True)
u = w * 2
v = u ** 2
u.{edit}
v.sum().backward()
"""


def _hint(edit: str) -> str:
    (found,) = [f for f in lint_source(SAVED.format(edit=edit), "snippet.py", project=False) if f.code == "GL005"]
    return found.hint


def test_an_edit_with_an_out_of_place_twin_names_it():
    assert "`u = u.add(...)`" in _hint("add_(1.0)")


def test_an_edit_without_one_names_no_method_torch_lacks():
    hint = _hint("copy_(torch.zeros(3))")
    assert ".copy(" not in hint and "`.clone()`" in hint


def test_an_edit_of_an_unnamed_result_never_suggests_assigning_to_a_call():
    source = SAVED.replace("u = w * 2\nv = u ** 2\nu.{edit}", "v = torch.sigmoid(w * 2).mul_(2.0)")
    (found,) = [f for f in lint_source(source, "snippet.py", project=False) if f.code == "GL005"]
    assert "`torch.sigmoid(w * 2).mul(...)` in its place" in found.hint
    assert "torch.sigmoid(w * 2) =" not in found.hint

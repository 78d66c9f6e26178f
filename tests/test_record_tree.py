"""``--show-graph``'s drawing of a record: past its limit a branch is summed up in one line, and
a branch made only of nodes drawn above gets no line ("… 0 more nodes" said nothing)."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from gradlint.dynamic.record import tree  # noqa: E402


def _labels(node: dict) -> list[str]:
    return [node["label"]] + [label for child in node["children"] for label in _labels(child)]


def test_a_branch_drawn_above_is_not_summed_up_again():
    w = torch.ones(3, requires_grad=True)
    shared = (w * 2).exp()
    loss = (shared.sin() + shared.cos()).sum()
    labels = _labels(tree(loss, lambda v: "w", limit=7))
    assert not any(label.startswith("… 0 more") for label in labels), labels
    assert "CosBackward0" in labels  # (the branch whose only node below was drawn above)

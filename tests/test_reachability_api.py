"""The public reachability API (``gradlint.reachable_leaves`` / ``unreachable_parameters`` /
``assert_reachable``) on the seed's two-parameter loop: broken by a ``.detach()``, then repaired."""
import pytest

torch = pytest.importorskip("torch")

import gradlint  # noqa: E402


def _loss(detach: bool):
    x = torch.tensor([1.0, 2.0, 3.0, 4.0])
    target = torch.tensor([3.0, 6.0, 9.0, 12.0])
    w1 = torch.tensor(0.5, requires_grad=True)
    w2 = torch.tensor(1.0, requires_grad=True)
    f = w1 * x
    prediction = w2 * (f.detach() if detach else f)
    return ((prediction - target) ** 2).mean(), {"w1": w1, "w2": w2}


def test_reachable_leaves_lists_only_what_backward_fills():
    loss, params = _loss(detach=True)
    reached = gradlint.reachable_leaves(loss)
    assert [t is params["w2"] for t in reached] == [True]
    loss.backward()
    assert params["w1"].grad is None and params["w2"].grad is not None


def test_unreachable_parameters_names_the_starved_one():
    loss, params = _loss(detach=True)
    assert gradlint.unreachable_parameters(loss, params) == ["w1"]
    repaired, params = _loss(detach=False)
    assert gradlint.unreachable_parameters(repaired, params) == []


def test_assert_reachable_raises_naming_each_parameter():
    loss, params = _loss(detach=True)
    with pytest.raises(AssertionError, match=r"1 parameter unreachable .*: w1$"):
        gradlint.assert_reachable(loss, params)
    repaired, params = _loss(detach=False)
    gradlint.assert_reachable(repaired, params)  # does not raise


def test_module_parameters_are_named_as_named_parameters_gives_them():
    nn = torch.nn
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    frozen_input = model[0](torch.randn(2, 3)).detach()
    loss = model[2](torch.tanh(frozen_input)).sum()
    assert gradlint.unreachable_parameters(loss, model) == ["0.weight", "0.bias"]
    model[0].requires_grad_(False)  # frozen on purpose: not reported
    assert gradlint.unreachable_parameters(loss, model) == []


def test_views_made_under_no_grad_resolve_to_their_leaf():
    w = torch.randn(3, 2, requires_grad=True)
    with torch.no_grad():
        view = w.t()
    assert view.requires_grad and view.grad_fn is None
    assert [t is w for t in gradlint.reachable_leaves(view)] == [True]


def test_reachable_leaves_rejects_non_tensors():
    with pytest.raises(TypeError):
        gradlint.reachable_leaves([1.0])

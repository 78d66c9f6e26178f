"""
expect: GL003 risk.py:17
dynamic: confirm
source: none, invented

Finance / risk-aware portfolio allocation. A small policy maps a market state
to long-only weights; the training objective is assembled from a config dict of
named loss terms (lambdas over functions in risk.py): minus the mean return
plus a max-drawdown penalty. `risk.max_drawdown_py` walks the return paths in
Python after `.tolist()` and rebuilds the result with
`torch.tensor(..., requires_grad=True)`, a fresh leaf with no history, so the
drawdown term is added to the loss but the allocator never receives its
gradient. The asserts show the parameter gradients with and without the
drawdown term are identical, that training with the buggy penalty yields the
same drawdown as training on return alone, and that the cummax-based torch
version changes the gradients and lowers the drawdown.
"""
import torch

import risk
from allocator import SoftmaxAllocator, portfolio_paths

CONFIGS = {
    "return_only": {"ret": (1.0, lambda p: -risk.mean_return(p))},
    "drawdown_py": {"ret": (1.0, lambda p: -risk.mean_return(p)),
                    "mdd": (3.0, risk.max_drawdown_py)},
    "drawdown_torch": {"ret": (1.0, lambda p: -risk.mean_return(p)),
                       "mdd": (3.0, risk.max_drawdown_torch)},
}


def objective(terms, paths):
    return sum(w * fn(paths) for w, fn in terms.values())


def market(n=64, T=20, seed=0):
    g = torch.Generator().manual_seed(seed)
    state = torch.randn(n, 6, generator=g)
    drift = torch.tensor([0.004, 0.002, 0.0005])
    vol = torch.tensor([0.06, 0.02, 0.002])
    shocks = torch.randn(n, T, 3, generator=g)
    return state, drift + vol * shocks


def grads(model, terms, state, rets):
    model.zero_grad()
    objective(terms, portfolio_paths(model(state), rets)).backward()
    return [p.grad.clone() for p in model.parameters()]


def fit(terms, state, rets, steps=80):
    torch.manual_seed(0)
    model = SoftmaxAllocator(6, 3)
    opt = torch.optim.Adam(model.parameters(), lr=3e-2)
    for _ in range(steps):
        opt.zero_grad()
        objective(terms, portfolio_paths(model(state), rets)).backward()
        opt.step()
    with torch.no_grad():
        return risk.max_drawdown_torch(portfolio_paths(model(state), rets)).item()


def main():
    state, rets = market()
    torch.manual_seed(0)
    model = SoftmaxAllocator(6, 3)
    g_ret = grads(model, CONFIGS["return_only"], state, rets)
    g_bug = grads(model, CONFIGS["drawdown_py"], state, rets)
    g_fix = grads(model, CONFIGS["drawdown_torch"], state, rets)
    assert all(torch.equal(a, b) for a, b in zip(g_ret, g_bug))
    assert any(not torch.allclose(a, b) for a, b in zip(g_ret, g_fix))

    mdd_ret = fit(CONFIGS["return_only"], state, rets)
    mdd_bug = fit(CONFIGS["drawdown_py"], state, rets)
    mdd_fix = fit(CONFIGS["drawdown_torch"], state, rets)
    assert abs(mdd_bug - mdd_ret) < 1e-6, (mdd_bug, mdd_ret)
    assert mdd_fix < 0.8 * mdd_ret, (mdd_fix, mdd_ret)
    print(f"k08 ok: drawdown return-only {mdd_ret:.4f}, python penalty {mdd_bug:.4f}, torch penalty {mdd_fix:.4f}")


if __name__ == "__main__":
    main()

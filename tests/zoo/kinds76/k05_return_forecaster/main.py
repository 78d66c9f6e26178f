"""
expect: GL003 main.py:46
dynamic: confirm
source: none, invented

Finance / return forecasting. The training script imports `forecaster`, which imports
`runtime`; runtime's top level calls `configure_runtime(SETTINGS)`, and that function
(besides threads and determinism) calls `torch.set_grad_enabled(False)` because the
backtests only evaluate frozen models. Grad mode is therefore off when the script
calls `trainer.step(...)`: the Huber loss has no grad_fn and `backward()` raises.
The asserts catch the RuntimeError around that call, check that grad mode was off
after the import and that the weights did not move, and show that running the same
step under `torch.enable_grad()` trains the GRU (loss falls).
"""
import torch

from forecaster import ForecastTrainer, ReturnForecaster


def synthetic_market(n_days=300, n_assets=5, window=10, seed=0):
    g = torch.Generator().manual_seed(seed)
    factor = torch.randn(n_days, generator=g).cumsum(0) * 0.01
    loadings = torch.randn(n_assets, generator=g)
    rets = 0.6 * torch.sin(factor[:, None] * 30 + loadings) + 0.1 * torch.randn(n_days, n_assets, generator=g)
    xs = torch.stack([rets[i:i + window] for i in range(n_days - window - 1)])
    ys = rets[window:n_days - 1]
    return xs, ys


def batches(xs, ys, size=64):
    for i in range(0, len(xs), size):
        yield xs[i:i + size], ys[i:i + size]


def main():
    assert not torch.is_grad_enabled()
    torch.manual_seed(0)
    xs, ys = synthetic_market()
    model = ReturnForecaster()
    trainer = ForecastTrainer(model)
    head_before = model.head.weight.detach().clone()

    window, target = next(batches(xs, ys))
    caught = None
    try:
        trainer.step(window, target)
    except RuntimeError as exc:
        caught = exc
    assert caught is not None
    assert "does not require grad" in str(caught)
    assert torch.equal(model.head.weight.detach(), head_before)

    # fixed: train with recording explicitly on
    losses = []
    with torch.enable_grad():
        for _ in range(15):
            epoch = [trainer.step(w, t) for w, t in batches(xs, ys)]
            losses.append(sum(epoch) / len(epoch))
    print(f"fixed: {losses[0]:.4f} -> {losses[-1]:.4f}")
    assert losses[-1] < 0.8 * losses[0]
    assert not torch.equal(model.head.weight.detach(), head_before)
    print("OK")


if __name__ == "__main__":
    main()

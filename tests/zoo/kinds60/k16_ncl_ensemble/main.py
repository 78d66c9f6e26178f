"""
expect: GL002 losses.py:12
dynamic: confirm
source: none, invented

Negative-correlation learning for an ensemble of small regressors, over two files. `main.py` loops over the
ensemble members (a list of models, each with its own optimizer) and gives each one the loss
`mse + lam * diversity_penalty(pred, ensemble_mean)`, where the penalty from losses.py is meant to push each
member away from the ensemble mean. The helper computes the penalty in numpy and returns
`torch.as_tensor(float(...))`, a fresh tensor with no history, so the term adds a constant to each member's
loss and contributes no gradient at all; the members train exactly as with lam = 0. The asserts show that
training with lam = 0.5 and lam = 0 gives identical weights and member spread and that the returned penalty
does not require grad, while `diversity_penalty_torch` (the same formula in torch) has a non-zero gradient
with respect to the member's weights and changes the trained ensemble.
"""
import torch
import torch.nn as nn

from losses import diversity_penalty, regression_loss, summarize

torch.set_num_threads(1)


def diversity_penalty_torch(pred, ensemble_mean):
    return -torch.mean((pred - ensemble_mean) ** 2)


def make_member(hidden):
    return nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, 1))


def noisy_sine(n=256):
    g = torch.Generator().manual_seed(0)
    x = torch.rand(n, 1, generator=g) * 6 - 3
    return x, torch.sin(2 * x) + 0.2 * torch.randn(n, 1, generator=g)


def train_ensemble(penalty_fn, lam, epochs=300):
    torch.manual_seed(0)
    members = [make_member(h) for h in (16, 24, 32, 48)]
    optimizers = [torch.optim.Adam(m.parameters(), lr=5e-3) for m in members]
    x, y = noisy_sine()
    for epoch in range(epochs):
        with torch.no_grad():
            ensemble_mean = torch.stack([m(x) for m in members]).mean(0)
        for model, opt in zip(members, optimizers):
            pred = model(x)
            loss = regression_loss(pred, y) + lam * penalty_fn(pred, ensemble_mean)
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        stats = summarize([m(x) for m in members], y)
    return members, stats


def same_weights(ms_a, ms_b):
    return all(torch.equal(p, q) for a, b in zip(ms_a, ms_b) for p, q in zip(a.parameters(), b.parameters()))


def main():
    plain, stats_plain = train_ensemble(diversity_penalty, lam=0.0)
    ncl, stats_ncl = train_ensemble(diversity_penalty, lam=0.5)
    assert same_weights(plain, ncl)
    assert stats_ncl["member_spread"] == stats_plain["member_spread"]

    x, _ = noisy_sine()
    pred = plain[0](x)
    with torch.no_grad():
        ensemble_mean = torch.stack([m(x) for m in plain]).mean(0)
    assert not diversity_penalty(pred, ensemble_mean).requires_grad
    grads = torch.autograd.grad(diversity_penalty_torch(pred, ensemble_mean), list(plain[0].parameters()))
    assert any(g.abs().sum() > 0 for g in grads)

    ncl_t, stats_t = train_ensemble(diversity_penalty_torch, lam=0.5)
    assert not same_weights(plain, ncl_t)
    assert stats_t["member_spread"] != stats_plain["member_spread"]
    print(f"member spread {stats_plain['member_spread']:.5f} (numpy penalty, any lam) "
          f"vs {stats_t['member_spread']:.5f} (torch penalty, lam=0.5)")


if __name__ == "__main__":
    main()

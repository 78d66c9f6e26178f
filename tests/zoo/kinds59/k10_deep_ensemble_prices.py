"""
expect: GL002 50
dynamic: confirm
source: none, invented

A deep ensemble of three regressors for a positive, skewed price target, held in a dict and trained
with one summed loss. `ensemble_loss(members, x, y)` puts each member in train mode and calls it.
The "log" member predicts log1p(price), and its prediction is mapped back to price units with
NumPy (`np.expm1` on `.detach().cpu().numpy()`) and rebuilt with `torch.from_numpy`; the rebuilt
tensor has no history, so that member's loss term carries no gradient and the member never trains
while the other two do. The asserts show the log member's weights have `.grad is None` and stay
unchanged after training; with `torch_only=True` the mapping is `torch.expm1` and all three members
train.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

W_TRUE = torch.tensor([0.8, -0.5, 0.3, 0.6])


def housing(n=128):
    x = torch.randn(n, 4)
    price = torch.exp(0.5 * x @ W_TRUE + 0.1 * torch.randn(n))
    return x, price


def make_members():
    return {
        "small": nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1)),
        "wide": nn.Sequential(nn.Linear(4, 128), nn.ReLU(), nn.Linear(128, 1)),
        "log": nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 1)),
    }


def ensemble_loss(members, x, y, torch_only=False):
    total = 0.0
    for name in members:
        members[name].train()
        out = members[name](x).squeeze(-1)
        if name == "log":
            if torch_only:
                out = torch.expm1(out)
            else:
                back = np.expm1(out.detach().cpu().numpy())
                out = torch.from_numpy(back).to(x.dtype)
        total = total + F.mse_loss(out, y)
    return total


def fit(members, steps, torch_only=False):
    params = [p for m in members.values() for p in m.parameters()]
    opt = torch.optim.Adam(params, lr=3e-3)
    for _ in range(steps):
        x, y = housing()
        loss = ensemble_loss(members, x, y, torch_only)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    members = make_members()
    start = {k: [p.detach().clone() for p in m.parameters()] for k, m in members.items()}
    fit(members, 30)
    for name, m in members.items():
        moved = max((p - q).abs().max().item() for p, q in zip(m.parameters(), start[name]))
        if name == "log":
            assert all(p.grad is None for p in m.parameters())
            assert moved == 0.0
        else:
            assert moved > 1e-3, name

    torch.manual_seed(0)
    members = make_members()
    w0 = members["log"][0].weight.detach().clone()
    fit(members, 30, torch_only=True)
    assert members["log"][0].weight.grad is not None
    assert (members["log"][0].weight - w0).abs().max().item() > 1e-3
    print("k10_deep_ensemble_prices: all checks passed")

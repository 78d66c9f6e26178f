"""
expect: none
dynamic: dismiss
source: kinds check 29, kind 4

A value network for a small control task is trained by a train() that
takes its criterion as an argument; it is called with a hand-written
asymmetric (expectile) loss class and with F.mse_loss. The class stays in
torch throughout, so both runs update the network.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ExpectileLoss:
    def __init__(self, tau=0.7):
        self.tau = tau

    def __call__(self, pred, target):
        diff = target - pred
        weight = torch.where(diff > 0, torch.full_like(diff, self.tau), torch.full_like(diff, 1 - self.tau))
        return (weight * diff ** 2).mean()


class ValueNet(nn.Module):
    def __init__(self, obs_dim):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, obs):
        return self.body(obs).squeeze(-1)


def train(model, criterion, obs, returns, steps=5):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        loss = criterion(model(obs), returns)
        loss.backward()
        opt.step()
    return model


torch.manual_seed(0)
obs = torch.randn(16, 4)
returns = torch.randn(16)

for crit in (ExpectileLoss(0.8), F.mse_loss):
    torch.manual_seed(1)
    net = ValueNet(4)
    before = [p.detach().clone() for p in net.parameters()]
    train(net, crit, obs, returns)
    for p, b in zip(net.parameters(), before):
        assert p.grad is not None
        assert not torch.equal(p.detach(), b)
print("ok")

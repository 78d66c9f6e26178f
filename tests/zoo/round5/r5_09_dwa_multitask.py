"""expect: GL002 53
dynamic: confirm
source: https://github.com/lorenmt/mtan/issues/23

Multi-task tabular model (shared trunk, regression head and classification head) weighted by
Dynamic Weight Average. The weighted task losses are collected with
`torch.tensor([...], requires_grad=True)` (a variant of the issue's proposal), which copies the values
into a new leaf: backward runs, yet the trunk and both heads never receive a gradient.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTaskNet(nn.Module):
    def __init__(self, n_features):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(n_features, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.reg_head = nn.Linear(32, 1)
        self.cls_head = nn.Linear(32, 3)

    def forward(self, x):
        h = self.trunk(x)
        return self.reg_head(h).squeeze(-1), self.cls_head(h)


def dwa_weights(history, n_tasks, temp=2.0):
    if len(history) < 2:
        return [1.0] * n_tasks
    ratios = [history[-1][k] / history[-2][k] for k in range(n_tasks)]
    exps = [math.exp(r / temp) for r in ratios]
    return [n_tasks * e / sum(exps) for e in exps]


torch.manual_seed(0)
X = torch.randn(128, 10)
y_reg = X[:, 0] * 2.0 + 0.1 * torch.randn(128)
y_cls = (X[:, 1] > 0).long() + (X[:, 2] > 1).long()
model = MultiTaskNet(10)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
snapshot = [p.detach().clone() for p in model.parameters()]
history = []

for epoch in range(6):
    lam = dwa_weights(history, 2)
    epoch_losses = [0.0, 0.0]
    for i in range(0, 128, 32):
        pred_reg, pred_cls = model(X[i:i + 32])
        train_loss = [F.mse_loss(pred_reg, y_reg[i:i + 32]),
                      F.cross_entropy(pred_cls, y_cls[i:i + 32])]
        loss = torch.tensor([lam[k] * train_loss[k] for k in range(2)],
                            requires_grad=True).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        for k in range(2):
            epoch_losses[k] += train_loss[k].item()
    history.append(epoch_losses)

assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(a, b) for a, b in zip(snapshot, model.parameters()))
print("ok: multi-task network never trained")

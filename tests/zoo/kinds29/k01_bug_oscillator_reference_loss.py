"""
expect: GL005 22
dynamic: confirm
source: kinds check 29, kind 1

A reference recurrence for a chain of damped oscillators fills a grid one
element at a time, each amplitude the previous one times a learned decay.
Here the reference is used as the training loss, so the multiply saves
out[i - 1, j] and the next element assignment bumps the grid's version.
"""
import torch
import torch.nn as nn


def reference_amplitudes(x0, decay, steps):
    n = x0.shape[0]
    out = torch.zeros(steps, n)
    for j in range(n):
        out[0, j] = x0[j]
    for i in range(1, steps):
        for j in range(n):
            out[i, j] = out[i - 1, j] * decay[j]
    return out


class DecayNet(nn.Module):
    def __init__(self, feat_dim, n):
        super().__init__()
        self.lin = nn.Linear(feat_dim, n)

    def forward(self, feats):
        return torch.sigmoid(self.lin(feats))


torch.manual_seed(0)
n, steps = 4, 6
model = DecayNet(3, n)
feats = torch.randn(3)
x0 = torch.randn(n)
measured = torch.randn(steps, n)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

caught = None
try:
    for epoch in range(2):
        opt.zero_grad()
        decay = model(feats)
        pred = reference_amplitudes(x0, decay, steps)
        loss = ((pred - measured) ** 2).mean()
        loss.backward()
        opt.step()
except RuntimeError as e:
    caught = str(e)

assert caught is not None, "expected the backward pass to fail"
assert "modified by an inplace operation" in caught, caught
print("ok: backward failed as expected:", caught.splitlines()[0][:90])

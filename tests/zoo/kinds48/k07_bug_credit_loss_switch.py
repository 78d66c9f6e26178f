"""
expect: GL003 24
dynamic: confirm
source: kinds check 48, kind 4

A credit-default classifier on tabular features. To "silence a warning" the
loss is detached and then re-enabled with requires_grad = True; backward now
stops at the new leaf, no parameter gets a gradient, and the model never trains.
"""
import torch
import torch.nn as nn

torch.manual_seed(6)
clf = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(clf.parameters(), lr=0.1)
crit = nn.BCEWithLogitsLoss()
X = torch.randn(256, 10)
y = (X[:, 0] + X[:, 1] > 0).float().unsqueeze(1)
snapshot = [p.detach().clone() for p in clf.parameters()]
for _ in range(20):
    opt.zero_grad()
    loss = crit(clf(X), y)
    loss = loss.detach()
    loss.requires_grad = True
    loss.backward()
    opt.step()
assert all(p.grad is None for p in clf.parameters())
assert all(torch.equal(a, b) for a, b in zip(snapshot, clf.parameters()))

# Intended version trains.
first = crit(clf(X), y).item()
for _ in range(20):
    opt.zero_grad()
    loss = crit(clf(X), y)
    loss.backward()
    opt.step()
assert loss.item() < first
print("ok: detached+re-enabled loss trained nothing")

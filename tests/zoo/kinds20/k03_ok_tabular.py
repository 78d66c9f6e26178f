"""
expect: none
dynamic: dismiss
source: kinds check 20, kind 3 (written for this check)

A tabular classifier's `run(x, y, train)` steps the optimiser only when `train`
is true. Validation calls it with `train=False` literally inside
`torch.no_grad()` (it only reads the loss) and training calls it with
`train=True` outside no_grad. The asserts show the validation call leaves the
weights untouched and the training call changes them.
"""
import torch
import torch.nn as nn


def make_model(n_features):
    return nn.Sequential(nn.Linear(n_features, 16), nn.ReLU(), nn.Linear(16, 3))


def run(model, opt, x, y, train):
    loss = nn.functional.cross_entropy(model(x), y)
    if train:
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


torch.manual_seed(5)
model = make_model(10)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x_tr, y_tr = torch.randn(64, 10), torch.randint(0, 3, (64,))
x_va, y_va = torch.randn(32, 10), torch.randint(0, 3, (32,))

before = model[0].weight.detach().clone()
with torch.no_grad():
    val_loss = run(model, opt, x_va, y_va, False)
assert torch.equal(model[0].weight, before), "validation must not update"

run(model, opt, x_tr, y_tr, True)
assert not torch.equal(model[0].weight, before), "training must update"
print("ok: validation loss", round(val_loss, 3), "and one training step")

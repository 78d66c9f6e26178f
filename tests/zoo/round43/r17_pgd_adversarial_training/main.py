"""
expect: none
dynamic: dismiss
source: https://github.com/DSE-MSU/DeepRobust/issues/36

Madry-style PGD adversarial training of a small MLP classifier. The attack in
attack.py draws a random start in NumPy, rebuilds it with torch.tensor(...) and
sets requires_grad = True, then in every step backpropagates the classifier loss,
takes the sign of the input gradient, projects, and re-arms the new point with
.detach().requires_grad_(). None of that is a cut path: the gradient the attack
needs is the one with respect to the input, and the input is a leaf by design.
The issue asks whether it is wrong that the returned adversarial batch still
requires grad; it is harmless, because the training loss only reads the model
parameters' .grad, and the stray gradient that lands on the adversarial batch is
never used. The trainer clears the parameter gradients after the attack (the
attack's own backward calls also fill them), so the update is clean. The asserts
show that the parameter gradients equal those from a detached copy of the batch,
that every parameter gets a gradient, that the attack really raises the loss,
and that the robust loss falls over training.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from attack import LinfPGD

torch.manual_seed(0)
np.random.seed(0)
torch.set_num_threads(1)


def make_data(n=256):
    x = torch.rand(n, 16)
    w = torch.randn(16, 3)
    y = ((x - 0.5) @ w).argmax(dim=1)
    return x, y


model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 3))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
adversary = LinfPGD(model, eps=0.05, step_size=0.02, steps=5)
x_all, y_all = make_data()


def robust_loss():
    x_adv = adversary.generate(x_all, y_all)
    with torch.no_grad():
        return F.cross_entropy(model(x_adv), y_all).item()


with torch.no_grad():
    clean_start = F.cross_entropy(model(x_all), y_all).item()
robust_start = robust_loss()
assert robust_start > clean_start  # the attack does increase the loss

for step in range(200):
    idx = torch.randint(0, x_all.shape[0], (64,))
    data, target = x_all[idx], y_all[idx]
    data_adv = adversary.generate(data, target)
    optimizer.zero_grad()
    loss = F.cross_entropy(model(data_adv), target)
    loss.backward()
    if step == 0:
        assert data_adv.requires_grad and data_adv.grad is not None
        got = [p.grad.clone() for p in model.parameters()]
        model.zero_grad()
        F.cross_entropy(model(data_adv.detach()), target).backward()
        ref = [p.grad.clone() for p in model.parameters()]
        for g, r in zip(got, ref):
            assert torch.allclose(g, r)
            assert g.abs().sum() > 0
    optimizer.step()

robust_end = robust_loss()
assert robust_end < robust_start - 0.2, (robust_start, robust_end)
print(f"robust loss {robust_start:.3f} -> {robust_end:.3f}")

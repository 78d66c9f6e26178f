"""
expect: none
dynamic: dismiss
source: kinds check 33, kind 5

A crop-yield regressor shares one epoch routine for training and validation;
backward and the optimizer step happen only when an optimizer is given. The
validation call under torch.no_grad() passes optimizer=None, so backward is
never reached there and both passes run cleanly.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


def run_epoch(model, loader, optimizer=None):
    total = 0.0
    for soil, yield_t in loader:
        loss = nn.functional.smooth_l1_loss(model(soil).squeeze(-1), yield_t)
        if optimizer is not None:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.item()
    return total / len(loader)


features = torch.randn(64, 9)
yields = features @ torch.randn(9) + 0.1 * torch.randn(64)
loader = [(features[i:i + 16], yields[i:i + 16]) for i in range(0, 64, 16)]

model = nn.Sequential(nn.Linear(9, 24), nn.ReLU(), nn.Linear(24, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

train_loss = run_epoch(model, loader, opt)
with torch.no_grad():
    val_loss = run_epoch(model, loader, optimizer=None)

assert train_loss > 0 and val_loss > 0
assert all(p.grad is not None for p in model.parameters())
print("ok: train", train_loss, "val", val_loss)

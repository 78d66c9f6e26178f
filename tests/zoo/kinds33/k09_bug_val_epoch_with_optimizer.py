"""
expect: GL003 38
dynamic: confirm
source: kinds check 33, kind 5

A crop-yield regressor shares one epoch routine for training and validation;
backward and the optimizer step run only when an optimizer is given. The
validation call sits under torch.no_grad() but still passes the optimizer, so
backward is reached on a loss with no graph and raises.
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
try:
    with torch.no_grad():
        val_loss = run_epoch(model, loader, opt)
    raised = None
except RuntimeError as err:
    raised = str(err)

assert train_loss > 0
assert raised is not None, "validation under no_grad with an optimizer should fail"
assert "element 0 of tensors does not require grad" in raised, raised
print("ok: validation raised:", raised.splitlines()[0][:90])

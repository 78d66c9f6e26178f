"""
expect: none
dynamic: dismiss
source: kinds check 55, kind 4

L2-SP fine-tuning of a pretrained house-price regressor: a .data.clone()
snapshot of the starting weights is flattened before the batch loop, and each
step the live parameters are flattened and pulled toward that snapshot.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 1))
alpha = 0.5
opt = torch.optim.SGD(net.parameters(), lr=0.05)

feats = torch.randn(64, 12)
price = torch.randn(64, 1)
start_flat = torch.cat([p.data.clone().view(-1) for p in net.parameters()])
for start in range(0, 64, 16):
    xb, yb = feats[start:start + 16], price[start:start + 16]
    data_term = F.mse_loss(net(xb), yb)
    live = torch.cat([p.view(-1) for p in net.parameters()])
    penalty = 0.5 * alpha * (live - start_flat).pow(2).sum()
    loss = data_term + penalty
    opt.zero_grad()
    loss.backward()
    g_full = [p.grad.clone() for p in net.parameters()]
    net.zero_grad()
    F.mse_loss(net(xb), yb).backward()
    g_data = [p.grad.clone() for p in net.parameters()]
    assert penalty.requires_grad
    if start > 0:  # after the first step the weights have left the snapshot
        assert not all(torch.allclose(a, b) for a, b in zip(g_full, g_data))
    for p, g in zip(net.parameters(), g_full):
        p.grad = g
    opt.step()
print("ok: L2-SP penalty pulls toward the snapshot")

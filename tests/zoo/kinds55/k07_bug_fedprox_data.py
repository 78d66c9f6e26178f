"""
expect: GL001 24
dynamic: confirm
source: kinds check 55, kind 4

FedProx-style local update for a house-price regressor: the client should be
pulled toward the server's global weights by a proximal term. The client's
flattened weights are taken once, before the batch loop, from each parameter's
.data, so the proximal term is a constant and the local model drifts freely.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
client = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 1))
server = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 1))
global_flat = torch.cat([p.detach().view(-1) for p in server.parameters()])
mu = 0.5
opt = torch.optim.SGD(client.parameters(), lr=0.05)

feats = torch.randn(64, 12)
price = torch.randn(64, 1)
local_flat = torch.cat([p.data.view(-1) for p in client.parameters()])
for start in range(0, 64, 16):
    xb, yb = feats[start:start + 16], price[start:start + 16]
    data_term = F.mse_loss(client(xb), yb)
    prox = 0.5 * mu * (local_flat - global_flat).pow(2).sum()
    loss = data_term + prox
    opt.zero_grad()
    loss.backward()
    g_bug = [p.grad.clone() for p in client.parameters()]
    # intended: live parameters in the proximal term
    client.zero_grad()
    live = torch.cat([p.view(-1) for p in client.parameters()])
    (F.mse_loss(client(xb), yb) + 0.5 * mu * (live - global_flat).pow(2).sum()).backward()
    g_ok = [p.grad.clone() for p in client.parameters()]
    client.zero_grad()
    F.mse_loss(client(xb), yb).backward()
    g_data = [p.grad.clone() for p in client.parameters()]
    assert not prox.requires_grad
    assert all(torch.allclose(a, b) for a, b in zip(g_bug, g_data))
    assert not all(torch.allclose(a, b) for a, b in zip(g_bug, g_ok))
    for p, g in zip(client.parameters(), g_bug):
        p.grad = g
    opt.step()
print("ok: proximal term never pulled the client")

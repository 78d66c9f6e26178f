"""
expect: GL001 56
dynamic: confirm
source: kinds check 25, kind 4

Learning a pendulum simulator by autoregressive rollout with one-step truncated BPTT: each
iteration the net advances the state it predicted last iteration, carried as `.data`. Besides
the one-step error the author penalises the energy drift of that carried state against the
initial energy, meaning to keep the rollout on its energy shell. The drift term is built only
from the carried `.data` tensor and a constant, so it gives no gradient; lam changes nothing.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

DT, G_L = 0.05, 9.81


def pendulum_step(s):
    th, om = s[..., 0], s[..., 1]
    om_new = om - DT * G_L * torch.sin(th)
    th_new = th + DT * om_new
    return torch.stack([th_new, om_new], dim=-1)


def energy(s):
    return 0.5 * s[..., 1].pow(2) + G_L * (1 - torch.cos(s[..., 0]))


net = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 2))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
s0 = torch.stack([torch.rand(16) * 2 - 1, torch.zeros(16)], dim=-1)
E0 = energy(s0)
lam = 0.1

state = s0
checked = 0
for it in range(25):
    pred = state + DT * net(state)
    step_err = F.mse_loss(pred, pendulum_step(state))
    loss = step_err
    if it > 0:
        drift = (energy(state) - E0).pow(2).mean()
        loss = step_err + lam * drift
        g_err = torch.autograd.grad(step_err, list(net.parameters()), retain_graph=True)
    opt.zero_grad()
    loss.backward()
    if it > 0:
        assert drift.item() > 0.0
        assert all(torch.equal(p.grad, g) for p, g in zip(net.parameters(), g_err)), it
        checked += 1
    opt.step()
    state = pred.data

assert checked == 24
print("ok: energy drift term was dead on", checked, "iterations")

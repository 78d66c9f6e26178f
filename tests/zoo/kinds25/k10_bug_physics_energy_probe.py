"""
expect: GL001 28
dynamic: confirm
source: kinds check 25, kind 3

A learned one-step integrator for a unit-mass spring (state q, p). The top model holds
`self.stepper` (an MLP) and `self.energy = EnergyProbe(k)`; the probe detaches the state it is
given "so the diagnostic cannot disturb the dynamics". The training loss adds
lam * (E(next_pred) - E(state))^2 as an energy-conservation penalty, but that term is built only
from probe outputs on detached states, so it never shapes the stepper: lam changes no gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

DT, K = 0.1, 2.0


class EnergyProbe(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.register_buffer("k", torch.tensor(k))

    def forward(self, state):
        s = state.detach()
        q, p = s[:, 0], s[:, 1]
        return 0.5 * p.pow(2) + 0.5 * self.k * q.pow(2)


class LearnedIntegrator(nn.Module):
    def __init__(self):
        super().__init__()
        self.stepper = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 2))
        self.energy = EnergyProbe(K)

    def forward(self, state):
        return state + DT * self.stepper(state)


def true_step(state):
    q, p = state[:, 0], state[:, 1]
    p_new = p - DT * K * q
    q_new = q + DT * p_new
    return torch.stack([q_new, p_new], dim=1)


model = LearnedIntegrator()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
states = torch.randn(128, 2)
targets = true_step(states)


def loss_with(lam):
    pred = model(states)
    drift = (model.energy(pred) - model.energy(states)).pow(2).mean()
    return F.mse_loss(pred, targets) + lam * drift, drift


for it in range(30):
    loss, _ = loss_with(1.0)
    opt.zero_grad()
    loss.backward()
    opt.step()

model.zero_grad()
loss, drift = loss_with(1.0)
loss.backward()
g_1 = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
loss_with(0.0)[0].backward()
g_0 = [p.grad.clone() for p in model.parameters()]
assert drift.item() > 0.0
assert all(torch.equal(a, b) for a, b in zip(g_1, g_0)), "energy penalty changes no gradient"
print("ok: energy-conservation term is dead, value", round(drift.item(), 6))

"""
expect: GL005 34
dynamic: none
source: kinds check 23, kind 3 (written for this check)

A learned pendulum integrator: a list of two stepper modules (coarse and fine dt) share a config dataclass whose
inplace_scale field, if True, would scale the tanh output in place (tanh saves its output, so backward would fail).
Both configs in this file leave inplace_scale=False, so the out-of-place arm always runs. The asserts show both
steppers read a False flag, the rollout loss backpropagates without error, and every parameter gets a gradient.
"""
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class StepConfig:
    dt: float
    hidden: int = 32
    inplace_scale: bool = False


class LearnedEulerStep(nn.Module):
    def __init__(self, cfg: StepConfig):
        super().__init__()
        self.cfg = cfg
        self.inp = nn.Linear(2, cfg.hidden)
        self.out = nn.Linear(cfg.hidden, 2)

    def forward(self, state):
        h = torch.tanh(self.inp(state))
        if self.cfg.inplace_scale:
            h.mul_(self.cfg.dt)
        else:
            h = h * self.cfg.dt
        return state + self.out(h)


def true_step(state, dt):
    theta, omega = state[:, :1], state[:, 1:]
    return torch.cat([theta + dt * omega, omega - dt * 9.81 * torch.sin(theta)], dim=1)


torch.manual_seed(7)
configs = [StepConfig(dt=0.1), StepConfig(dt=0.05, hidden=16, inplace_scale=False)]
steppers = [LearnedEulerStep(c) for c in configs]
params = [p for s in steppers for p in s.parameters()]
opt = torch.optim.Adam(params, lr=1e-3)
assert not any(s.cfg.inplace_scale for s in steppers)

for _ in range(4):
    loss = 0.0
    for stepper in steppers:
        state = torch.randn(16, 2)
        target = state
        for _ in range(5):
            state = stepper(state)
            target = true_step(target, stepper.cfg.dt)
        loss = loss + (state - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in params)
    opt.step()
print("ok: both stepper configs keep the out-of-place arm; rollout trains")

"""
expect: GL001 26
dynamic: confirm
source: kind 9

A grey-box damped-oscillator model learns its damping coefficient as a
trainable nn.Parameter (log scale), but forward reads it through `.data`, so
the rollout is cut from the parameter and it never trains. The asserts show
log_damping.grad stays None and its value stays at the initial guess, while
the variant that reads the parameter directly recovers the true damping.
"""
import math

import torch
import torch.nn as nn


class DampedOscillator(nn.Module):
    def __init__(self, stiffness=4.0, dt=0.05):
        super().__init__()
        self.stiffness, self.dt = stiffness, dt
        self.log_damping = nn.Parameter(torch.tensor(0.0))
        self.force_net = nn.Linear(2, 1)  # small learned residual force

    def damping(self):
        return self.log_damping.data.exp()

    def forward(self, x0, v0, steps):
        x, v, xs = x0, v0, []
        c = self.damping()
        for _ in range(steps):
            state = torch.stack([x, v], dim=-1)
            a = -self.stiffness * x - c * v + 0.01 * self.force_net(state).squeeze(-1)
            v = v + self.dt * a
            x = x + self.dt * v
            xs.append(x)
        return torch.stack(xs, dim=-1)


class FixedOscillator(DampedOscillator):
    def damping(self):
        return self.log_damping.exp()


def fit(model_cls, true_c=0.4, iters=150):
    torch.manual_seed(15)
    x0, v0 = torch.randn(16), torch.randn(16)
    with torch.no_grad():
        target = FixedOscillator()
        target.log_damping.fill_(math.log(true_c))
        target.force_net.weight.zero_(), target.force_net.bias.zero_()
        traj = target(x0, v0, 60)
    model = model_cls()
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for _ in range(iters):
        opt.zero_grad()
        nn.functional.mse_loss(model(x0, v0, 60), traj).backward()
        grad = model.log_damping.grad
        opt.step()
    return model, grad


if __name__ == "__main__":
    model, grad = fit(DampedOscillator)
    assert grad is None
    assert model.log_damping.item() == 0.0  # stuck at damping = 1.0
    assert model.force_net.weight.grad is not None

    fixed, grad = fit(FixedOscillator)
    assert grad is not None
    assert abs(fixed.log_damping.exp().item() - 0.4) < 0.05, fixed.log_damping.exp()
    print("ok: .data read keeps the damping parameter from training")

"""
expect: none
dynamic: dismiss
source: kinds check 21, kind 3 (written for this check)

Learning a force field from an observed trajectory: a semi-implicit Euler rollout
writes every position into a torch.empty(steps+1, N, 2) buffer that the loss is
taken on, and beside it copies x.detach().cpu() into a second buffer kept only for
plotting. The loss buffer's values carry history, so the force MLP and the learned
drag coefficient both train through the index assignments. The asserts show every
parameter gets a nonzero gradient and that the plotting buffer holds no graph.
"""
import torch
import torch.nn as nn


class ForceField(nn.Module):
    def __init__(self, hid=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, hid), nn.Tanh(), nn.Linear(hid, 2))
        self.log_drag = nn.Parameter(torch.tensor(-1.0))

    def forward(self, x, v):
        return self.net(x) - self.log_drag.exp() * v


def rollout(accel, x0, v0, steps, dt, plot_buf=None):
    traj = torch.empty(steps + 1, *x0.shape)
    traj[0] = x0
    x, v = x0, v0
    for k in range(steps):
        v = v + dt * accel(x, v)
        x = x + dt * v
        traj[k + 1] = x
        if plot_buf is not None:
            plot_buf[k + 1] = x.detach().cpu()
    return traj


def true_accel(x, v):
    return -2.0 * x - 0.3 * v


if __name__ == "__main__":
    torch.manual_seed(8)
    n, steps, dt = 10, 30, 0.05
    x0, v0 = torch.randn(n, 2), torch.randn(n, 2)
    observed = rollout(true_accel, x0, v0, steps, dt)
    field = ForceField()
    opt = torch.optim.Adam(field.parameters(), lr=1e-2)
    plot_buf = torch.zeros(steps + 1, n, 2)
    for it in range(30):
        opt.zero_grad()
        pred = rollout(field, x0, v0, steps, dt, plot_buf=plot_buf)
        loss = (pred - observed).pow(2).mean()
        loss.backward()
        if it == 0:
            first = loss.item()
            for name, p in field.named_parameters():
                assert p.grad is not None and p.grad.abs().sum() > 0, name
        opt.step()
    assert loss.item() < first
    assert not plot_buf.requires_grad and torch.allclose(plot_buf[1:], pred.detach()[1:])
    print("ok: the rollout buffer keeps the path; the plotting copy is separate")

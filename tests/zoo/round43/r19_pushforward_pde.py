"""
expect: none
dynamic: dismiss
source: https://github.com/brandstetter-johannes/MP-Neural-PDE-Solvers/blob/HEAD/experiments/train_helper.py

Autoregressive neural PDE solver trained with the "pushforward trick". A small
1-D conv net maps a window of tw time frames of a heat-equation solution to the
next tw frames. Each batch picks a random number of unrolls and random start
times; the solver is first rolled forward under torch.no_grad() so that its input
carries its own prediction errors, and only the final one-step prediction is
trained (loss = sqrt(MSE)). The no_grad unroll is deliberate: the paper treats the
unrolled input as a sample from the solver's own distribution and does not
backpropagate through it, and the logged loss is a detached copy. The asserts show
that the unrolled input has no history, that every parameter still gets a nonzero
gradient from the one-step loss, and that both the training loss and a long
autoregressive rollout error fall.
"""
import random

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)
torch.set_num_threads(1)

NX, NT, TW = 32, 60, 4


def heat_trajectories(n):
    """Explicit finite differences for u_t = nu * u_xx on a periodic grid."""
    x = torch.linspace(0, 1, NX + 1)[:-1]
    k = torch.randint(1, 4, (n, 3)).float()
    amp = torch.randn(n, 3)
    u = (amp[:, :, None] * torch.sin(2 * torch.pi * k[:, :, None] * x)).sum(1)
    nu = 0.2 + 0.3 * torch.rand(n, 1)
    frames = [u]
    for _ in range(NT - 1):
        for _ in range(5):
            lap = torch.roll(u, 1, -1) - 2 * u + torch.roll(u, -1, -1)
            u = u + 0.4 * nu * lap
        frames.append(u)
    return torch.stack(frames, 1)  # (n, NT, NX)


class WindowSolver(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(TW, 32, 5, padding=2, padding_mode="circular"), nn.GELU(),
                                 nn.Conv1d(32, 32, 5, padding=2, padding_mode="circular"), nn.GELU(),
                                 nn.Conv1d(32, TW, 1))

    def forward(self, window):
        return window[:, -1:, :] + self.net(window)


def windows_at(traj, starts):
    data = torch.stack([traj[i, s - TW:s] for i, s in enumerate(starts)])
    labels = torch.stack([traj[i, s:s + TW] for i, s in enumerate(starts)])
    return data, labels


def rollout_error(model, traj):
    with torch.no_grad():
        window = traj[:, :TW]
        err = 0.0
        for s in range(TW, NT - TW + 1, TW):
            window = model(window)
            err += torch.mean((window - traj[:, s:s + TW]) ** 2).item()
    return err


def train_epoch(model, optimizer, traj, batch_size=16, unrolling=(0, 1, 2)):
    losses = []
    for b in range(0, traj.shape[0], batch_size):
        batch = traj[b:b + batch_size]
        optimizer.zero_grad()
        unrolls = random.choice(unrolling)
        steps = list(range(TW, NT - TW - TW * unrolls + 1))
        starts = random.choices(steps, k=batch.shape[0])
        data, labels = windows_at(batch, starts)
        with torch.no_grad():
            for _ in range(unrolls):
                starts = [s + TW for s in starts]
                _, labels = windows_at(batch, starts)
                data = model(data)
        assert data.grad_fn is None and not data.requires_grad
        pred = model(data)
        loss = torch.sqrt(nn.functional.mse_loss(pred, labels))
        loss.backward()
        for p in model.parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0
        losses.append(loss.detach())
        optimizer.step()
    return torch.stack(losses).mean().item()


train = heat_trajectories(64)
valid = heat_trajectories(16)
model = WindowSolver()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)

val_start = rollout_error(model, valid)
epoch_losses = [train_epoch(model, optimizer, train) for _ in range(40)]
val_end = rollout_error(model, valid)

assert epoch_losses[-1] < 0.5 * epoch_losses[0], (epoch_losses[0], epoch_losses[-1])
assert val_end < 0.2 * val_start, (val_start, val_end)
print(f"train {epoch_losses[0]:.4f} -> {epoch_losses[-1]:.4f}, rollout {val_start:.4f} -> {val_end:.4f}")

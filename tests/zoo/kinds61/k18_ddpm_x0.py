"""
expect: GL002 63
dynamic: confirm
source: none, invented

A toy DDPM on a 2-D ring dataset whose noise schedule lives in NumPy arrays. The denoiser predicts the
noise, and the training step converts that prediction to a clean-sample estimate with the closed form
x0 = (x_t - sqrt(1 - abar) * eps) / sqrt(abar), clipped to the data range, computed in NumPy on
`eps_pred.detach().numpy()`; the estimate is rebuilt with `torch.tensor(..., requires_grad=True)` (added
to get past "element 0 of tensors does not require grad") and compared with the true x0 in
`F.mse_loss`. The rebuilt tensor is the prediction side of the loss: it is a new leaf, so `backward`
fills its own `.grad` and nothing reaches the denoiser, even though Adam is stepping it. The asserts show
the denoiser's parameters keep `grad is None` and their initial values after training; the
`training_loss_torch` variant, which does the same arithmetic with torch ops on the schedule, trains the
denoiser and lowers the x0 error.
"""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
np.random.seed(0)

T_STEPS = 50
BETAS = np.linspace(1e-4, 0.05, T_STEPS, dtype=np.float32)
ALPHA_BAR = np.cumprod(1.0 - BETAS).astype(np.float32)


class Denoiser(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.t_embed = nn.Embedding(T_STEPS, 16)
        self.net = nn.Sequential(nn.Linear(2 + 16, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, 2))

    def forward(self, x_t, t):
        return self.net(torch.cat([x_t, self.t_embed(t)], dim=-1))


def ring(n):
    angle = torch.rand(n) * 2 * math.pi
    return torch.stack([torch.cos(angle), torch.sin(angle)], dim=1) + 0.05 * torch.randn(n, 2)


def noisy_sample(x0):
    t = torch.randint(0, T_STEPS, (x0.size(0),))
    eps = torch.randn_like(x0)
    abar = torch.from_numpy(ALPHA_BAR)[t][:, None]
    x_t = abar.sqrt() * x0 + (1 - abar).sqrt() * eps
    return x_t, t, eps


def training_loss(model, x0):
    x_t, t, _ = noisy_sample(x0)
    eps_pred = model(x_t, t)
    abar = ALPHA_BAR[t.numpy()][:, None]
    x0_np = (x_t.numpy() - np.sqrt(1 - abar) * eps_pred.detach().numpy()) / np.sqrt(abar)
    x0_np = np.clip(x0_np, -1.5, 1.5)
    x0_pred = torch.tensor(x0_np, requires_grad=True)
    return F.mse_loss(x0_pred, x0)


def training_loss_torch(model, x0):
    x_t, t, _ = noisy_sample(x0)
    eps_pred = model(x_t, t)
    abar = torch.from_numpy(ALPHA_BAR)[t][:, None]
    x0_pred = ((x_t - (1 - abar).sqrt() * eps_pred) / abar.sqrt()).clamp(-1.5, 1.5)
    return F.mse_loss(x0_pred, x0)


def train(loss_fn, steps=200):
    torch.manual_seed(0)
    model = Denoiser()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    before = [p.detach().clone() for p in model.parameters()]
    history = []
    for _ in range(steps):
        loss = loss_fn(model, ring(256))
        opt.zero_grad()
        loss.backward()
        opt.step()
        history.append(loss.item())
    moved = any(not torch.equal(a, p.detach()) for a, p in zip(before, model.parameters()))
    return model, moved, history


if __name__ == "__main__":
    model, moved, _ = train(training_loss)
    assert all(p.grad is None for p in model.parameters())
    assert not moved

    model, moved, history = train(training_loss_torch)
    assert all(p.grad is not None for p in model.parameters())
    assert moved
    assert np.mean(history[-20:]) < np.mean(history[:20])
    print("k18: denoiser trains only when the x0 estimate stays in torch")

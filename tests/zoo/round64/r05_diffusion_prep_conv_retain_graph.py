"""
expect: GL004 68
dynamic: confirm
source: https://github.com/lucidrains/denoising-diffusion-pytorch/issues/109

A user of denoising-diffusion-pytorch trained a 1-D diffusion model on their
own signals and, to bring the data to the channel count the network expects,
ran a Conv1d over the whole dataset once, before the training loop.  That
preprocessed tensor carries the conv's graph; the first loss.backward() frees
it and the second iteration fails with "Trying to backward through the graph
a second time ... Specify retain_graph=True".  The fix found in the thread was
to move the conversion out of the graph.  The fix the message suggests,
backward(retain_graph=True), makes the loop run, but then the dataset tensor
drags one shared graph from step to step: every backward walks back through
the conversion of the full dataset, keeps it alive, and pours gradient into a
conv that no optimizer owns, so its .grad grows without bound.  The program
reproduces the error, then shows with the retain_graph "fix" that a hook on the
preprocessed dataset fires on every step and the conv's gradient norm keeps
growing; converting the data under no_grad trains without retain_graph and
leaves the conv untouched.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

T_STEPS = 50
betas = torch.linspace(1e-4, 0.05, T_STEPS)
alphas_bar = torch.cumprod(1 - betas, dim=0)


class Denoiser1d(nn.Module):
    def __init__(self, ch=4):
        super().__init__()
        self.inp = nn.Conv1d(ch, 16, 3, padding=1)
        self.t_emb = nn.Linear(1, 16)
        self.out = nn.Conv1d(16, ch, 3, padding=1)

    def forward(self, x, t):
        h = self.inp(x) + self.t_emb(t.float().view(-1, 1) / T_STEPS).unsqueeze(-1)
        return self.out(F.silu(h))


def diffusion_loss(model, x0):
    t = torch.randint(0, T_STEPS, (x0.shape[0],))
    a = alphas_bar[t].view(-1, 1, 1)
    noise = torch.randn_like(x0)
    x_t = a.sqrt() * x0 + (1 - a).sqrt() * noise
    return F.mse_loss(model(x_t, t), noise)


def train(data, model, opt, steps):
    for _ in range(steps):
        idx = torch.randint(0, data.shape[0], (8,))
        loss = diffusion_loss(model, data[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()


def train_retaining(data, model, opt, steps):
    for _ in range(steps):
        idx = torch.randint(0, data.shape[0], (8,))
        loss = diffusion_loss(model, data[idx])
        opt.zero_grad()
        loss.backward(retain_graph=True)
        opt.step()


raw = torch.randn(32, 2, 64)                     # recordings with 2 channels
to_model_channels = nn.Conv1d(2, 4, kernel_size=1)

# original: conversion done once, outside the loop, with its graph attached
data = to_model_channels(raw)
model = Denoiser1d()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
try:
    train(data, model, opt, steps=2)
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "backward through the graph a second time" in raised

# the suggested "fix": retain the graph
data = to_model_channels(raw)
visits = []
data.register_hook(lambda g: visits.append(1))
model = Denoiser1d()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
norms = []
for _ in range(4):
    train_retaining(data, model, opt, steps=1)
    norms.append(to_model_channels.weight.grad.norm().item())
assert len(visits) == 4                           # each step walks the whole dataset graph
assert all(b > a for a, b in zip(norms, norms[1:]))

# fixed: convert without a graph, no retain_graph needed
to_model_channels.weight.grad = None
with torch.no_grad():
    data = to_model_channels(raw)
model = Denoiser1d()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
w0 = [p.detach().clone() for p in model.parameters()]
train(data, model, opt, steps=4)
assert to_model_channels.weight.grad is None
assert any(not torch.equal(a, p) for a, p in zip(w0, model.parameters()))

"""
expect: none
dynamic: dismiss
source: https://github.com/JeroenN/UDL-MetaTrainingHyperNetwork/blob/72fbc755815be5ae592345b93e7d3a0599bd591f/main.py#L600

A hypernetwork reads a summary of a task's data and emits the weights of a small
target network; it is meta-trained MAML-style through torch.func.functional_call
(inner steps with create_graph=True on a cloned parameter dict, outer loss
back-propagated into the hypernetwork). Its evaluation routine looks like the
classic "detach then requires_grad_" mistake: it copies the hypernetwork's
parameters with v.clone().detach().requires_grad_(True), runs a few inner SGD
steps with create_graph=False, and after every step rebuilds the dict with
(p - g * lr).detach().requires_grad_(True). Here that is intended: evaluation
fine-tunes a throw-away copy of the meta-learned weights on the test task and
must neither build a growing graph nor touch the meta-parameters, so each step
starts a fresh leaf on purpose. The asserts show that meta-training moves the
hypernetwork and lowers the post-adaptation query loss, that the evaluation
copy's loss falls with every inner step, and that evaluation leaves the
hypernetwork's parameters bit-identical and without gradients.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)

H = 16
SHAPES = {"w1": (H, 1), "b1": (H,), "w2": (1, H), "b2": (1,)}
N_OUT = sum(math.prod(s) for s in SHAPES.values())


class HyperNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 64), nn.Tanh(), nn.Linear(64, N_OUT))

    def forward(self, ctx):
        flat = self.net(ctx) * 0.5
        out, i = {}, 0
        for k, s in SHAPES.items():
            n = math.prod(s)
            out[k] = flat[i:i + n].view(s)
            i += n
        return out


def target_forward(x, p):
    return F.linear(torch.tanh(F.linear(x, p["w1"], p["b1"])), p["w2"], p["b2"])


def sample_task(gen):
    a = torch.rand(1, generator=gen) * 2 + 0.5
    ph = torch.rand(1, generator=gen) * 3

    def draw(n):
        x = torch.rand(n, 1, generator=gen) * 6 - 3
        return x, a * torch.sin(x + ph)
    return draw


def context(x, y):
    return torch.stack([x.mean(), y.mean(), (x * y).mean(), (y * y).mean()])


def task_loss(hyper_params, buffers, hyper, x_ctx, y_ctx, x, y):
    p = functional_call(hyper, (hyper_params, buffers), (context(x_ctx, y_ctx),))
    return F.mse_loss(target_forward(x, p), y)


hyper = HyperNetwork()
buffers = dict(hyper.named_buffers())
opt = torch.optim.Adam(hyper.parameters(), lr=3e-3)
gen = torch.Generator().manual_seed(0)
LR_INNER, STEPS_INNER = 0.05, 2

start = {k: v.detach().clone() for k, v in hyper.named_parameters()}
outer_hist = []
for episode in range(200):
    draw = sample_task(gen)
    xs, ys = draw(20)
    xq, yq = draw(20)
    adapted = {k: v.clone() for k, v in hyper.named_parameters()}
    for _ in range(STEPS_INNER):
        inner = task_loss(adapted, buffers, hyper, xs, ys, xs, ys)
        grads = torch.autograd.grad(inner, adapted.values(), create_graph=True)
        adapted = {k: p - g * LR_INNER for (k, p), g in zip(adapted.items(), grads)}
    outer = task_loss(adapted, buffers, hyper, xs, ys, xq, yq)
    opt.zero_grad()
    outer.backward()
    opt.step()
    outer_hist.append(outer.item())

assert any(not torch.equal(start[k], v.detach()) for k, v in hyper.named_parameters())
assert sum(outer_hist[-50:]) < 0.8 * sum(outer_hist[:50]), (sum(outer_hist[:50]), sum(outer_hist[-50:]))


def evaluate(hyper, draw, steps=10, lr=0.05):
    xs, ys = draw(20)
    xq, yq = draw(50)
    current = {k: v.clone().detach().requires_grad_(True) for k, v in hyper.named_parameters()}
    support_losses = []
    for _ in range(steps):
        loss = task_loss(current, buffers, hyper, xs, ys, xs, ys)
        support_losses.append(loss.item())
        grads = torch.autograd.grad(loss, current.values(), create_graph=False)
        current = {k: (p - g * lr).detach().requires_grad_(True) for (k, p), g in zip(current.items(), grads)}
    with torch.no_grad():
        before = task_loss(dict(hyper.named_parameters()), buffers, hyper, xs, ys, xq, yq).item()
        after = task_loss(current, buffers, hyper, xs, ys, xq, yq).item()
    return support_losses, before, after


opt.zero_grad()
snapshot = {k: v.detach().clone() for k, v in hyper.named_parameters()}
support_losses, before, after = evaluate(hyper, sample_task(torch.Generator().manual_seed(123)))
assert all(b < a for a, b in zip(support_losses, support_losses[1:])), support_losses
assert after < before, (before, after)
for k, v in hyper.named_parameters():
    assert torch.equal(snapshot[k], v.detach()) and v.grad is None, k
print("meta-train outer loss %.3f -> %.3f; eval copy: query mse %.3f -> %.3f, meta weights untouched"
      % (sum(outer_hist[:50]) / 50, sum(outer_hist[-50:]) / 50, before, after))

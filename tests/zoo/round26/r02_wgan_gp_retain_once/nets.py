"""Tiny generator / critic pair and the WGAN-GP gradient penalty."""
import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, z_dim=4, out_dim=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, out_dim))

    def forward(self, z):
        return self.net(z)


class Critic(nn.Module):
    def __init__(self, in_dim=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)


def gradient_penalty(critic, real, fake):
    eps = torch.rand(real.shape[0], 1)
    mixed = eps * real + (1 - eps) * fake
    scores = critic(mixed)
    grad = torch.autograd.grad(scores, mixed, grad_outputs=torch.ones_like(scores),
                               create_graph=True, retain_graph=True)[0]
    return ((grad.norm(2, dim=1) - 1) ** 2).mean()


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return len(seen)

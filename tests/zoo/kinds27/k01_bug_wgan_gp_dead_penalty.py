"""
expect: GL001 34
dynamic: confirm
source: kinds check 27, kind 1

A tabular WGAN-GP critic step. The gradient penalty helper takes input
gradients with torch.autograd.grad but never asks for create_graph, so the
penalty is a constant with no path back to the critic weights; adding it to
the critic loss changes the printed number and nothing else.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Critic(nn.Module):
    def __init__(self, n_features=12, hidden=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_features, hidden), nn.Softplus(),
            nn.Linear(hidden, hidden), nn.Softplus(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)
    mix = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(mix)
    (grads,) = torch.autograd.grad(scores.sum(), mix)
    return ((grads.norm(2, dim=1) - 1.0) ** 2).mean()


def critic_step(critic, real, fake, lam=10.0):
    wasserstein = critic(fake).mean() - critic(real).mean()
    gp = gradient_penalty(critic, real, fake)
    return wasserstein + lam * gp, wasserstein, gp


critic = Critic()
real = torch.randn(64, 12) * 2.0 + 0.5
fake = torch.randn(64, 12)

torch.manual_seed(1)
loss, wasserstein, gp = critic_step(critic, real, fake)
critic.zero_grad()
loss.backward(retain_graph=True)
with_gp = [p.grad.clone() for p in critic.parameters()]

critic.zero_grad()
wasserstein.backward()
without_gp = [p.grad.clone() for p in critic.parameters()]

assert gp.item() > 1e-3, gp
assert not gp.requires_grad
assert all(torch.equal(a, b) for a, b in zip(with_gp, without_gp))
print("gp =", gp.item(), "-> contributes no gradient to the critic")

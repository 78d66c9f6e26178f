"""
expect: none
dynamic: dismiss
source: none, invented

Generative modelling / energy-based sampling. `LangevinSampler.sample` is a
library routine decorated with `@torch.no_grad()` (the chain itself must not
build a graph over hundreds of steps) that receives the score function as a
keyword argument from its caller and calls it inside that unrecorded region.
The caller builds the score with a closure over an energy function and, as the
sampler's documentation asks, opens `with torch.enable_grad():` around its own
differentiation: the input is detached, marked as requiring grad, the energy is
recomputed and `torch.autograd.grad` returns -dE/dx. Recording is therefore on
exactly where the gradient is taken, and the chain is correct. The asserts show
the sampler produces finite samples whose mean and spread match the target
Gaussian and that grad mode is back off after each score call.
"""
import math

import torch


class LangevinSampler:
    """Unadjusted Langevin dynamics x <- x + eps * score(x) + sqrt(2 eps) * noise.

    `score_fn(x)` must return grad log p(x); because the chain runs under
    no_grad, a score_fn that differentiates must enable grad itself.
    """

    def __init__(self, step_size=0.01, n_steps=400, seed=0):
        self.step_size = step_size
        self.n_steps = n_steps
        self.gen = torch.Generator().manual_seed(seed)
        self.grad_mode_seen = []

    @torch.no_grad()
    def sample(self, x0, *, score_fn):
        x = x0.clone()
        noise_scale = math.sqrt(2 * self.step_size)
        for _ in range(self.n_steps):
            s = score_fn(x)
            self.grad_mode_seen.append(torch.is_grad_enabled())
            x = x + self.step_size * s + noise_scale * torch.randn(x.shape, generator=self.gen)
        return x


class QuadraticEnergy(torch.nn.Module):
    """E(x) = 0.5 (x - mu)^T P (x - mu): a Gaussian with precision P."""

    def __init__(self, mu, precision):
        super().__init__()
        self.register_buffer("mu", mu)
        self.register_buffer("precision", precision)

    def forward(self, x):
        d = x - self.mu
        return 0.5 * torch.einsum("bi,ij,bj->b", d, self.precision, d)


def make_score(energy):
    def score(x):
        with torch.enable_grad():
            x = x.detach().requires_grad_(True)
            e = energy(x).sum()
            (g,) = torch.autograd.grad(e, x)
        return -g
    return score


def main():
    torch.manual_seed(0)
    mu = torch.tensor([2.0, -1.0])
    cov = torch.tensor([[1.0, 0.5], [0.5, 0.8]])
    energy = QuadraticEnergy(mu, torch.linalg.inv(cov))
    sampler = LangevinSampler()
    x0 = torch.randn(2000, 2) * 3
    samples = sampler.sample(x0, score_fn=make_score(energy))

    assert torch.isfinite(samples).all()
    assert torch.allclose(samples.mean(0), mu, atol=0.15), samples.mean(0)
    emp_cov = torch.cov(samples.T)
    assert torch.allclose(emp_cov, cov, atol=0.2), emp_cov
    assert sampler.grad_mode_seen and not any(sampler.grad_mode_seen)
    print("k09 ok: enable_grad inside the handed score makes the no_grad Langevin chain correct")


if __name__ == "__main__":
    main()

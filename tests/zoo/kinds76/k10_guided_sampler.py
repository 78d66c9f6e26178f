"""
expect: none
dynamic: dismiss
source: none, invented

Generative modelling / classifier-guided sampling on 2-D toy data. A Langevin sampler
keeps a guidance function handed through `set_guidance(fn)` and calls it inside its
`sample` method, which is decorated `@torch.no_grad()` (sampling itself must not
build a graph over hundreds of steps). The guidance function, `classifier_guidance`,
needs the gradient of the classifier's log-probability with respect to the sample;
it is written the way guided-diffusion code writes it: it opens
`with torch.enable_grad():` itself, detaches the input, marks it as requiring grad and
calls `torch.autograd.grad`, so it works under the sampler's no-grad region. The
asserts show the guidance returns non-zero gradients from inside the sampler, that
guided samples land in the requested class far more often than unguided ones, and
that the classifier used for guidance was itself trained (its loss fell).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

CENTERS = torch.tensor([[2.0, 0.0], [-1.0, 1.7], [-1.0, -1.7]])


def mixture_score(x, sigma=0.6):
    """Score (grad log density) of an equal mixture of Gaussians at CENTERS."""
    diff = CENTERS[None] - x[:, None]                      # (n, k, 2)
    logw = -(diff.pow(2).sum(-1)) / (2 * sigma ** 2)       # (n, k)
    w = torch.softmax(logw, dim=1)
    return (w[..., None] * diff).sum(1) / sigma ** 2


class NoisyClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 32), nn.SiLU(), nn.Linear(32, 3))

    def forward(self, x):
        return self.net(x)


def train_classifier(clf, steps=150):
    opt = torch.optim.Adam(clf.parameters(), lr=1e-2)
    losses = []
    for _ in range(steps):
        y = torch.randint(0, 3, (128,))
        x = CENTERS[y] + 0.6 * torch.randn(128, 2)
        loss = F.cross_entropy(clf(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


class LangevinSampler:
    def __init__(self, score_fn, step_size=0.02, n_steps=200):
        self.score_fn = score_fn
        self.step_size = step_size
        self.n_steps = n_steps
        self.guidance = None
        self.guidance_norms = []

    def set_guidance(self, fn, scale=1.0):
        self.guidance = fn
        self.scale = scale

    @torch.no_grad()
    def sample(self, n, generator=None):
        x = 2.5 * torch.randn(n, 2, generator=generator)
        for _ in range(self.n_steps):
            drift = self.score_fn(x)
            if self.guidance is not None:
                g = self.guidance(x)
                self.guidance_norms.append(g.norm(dim=1).mean().item())
                drift = drift + self.scale * g
            noise = torch.randn(x.shape, generator=generator)
            x = x + self.step_size * drift + math.sqrt(2 * self.step_size) * noise
        return x


def make_classifier_guidance(classifier, target_class):
    def classifier_guidance(x):
        with torch.enable_grad():
            x_in = x.detach().requires_grad_(True)
            log_probs = F.log_softmax(classifier(x_in), dim=-1)
            selected = log_probs[:, target_class].sum()
            return torch.autograd.grad(selected, x_in)[0]
    return classifier_guidance


def main():
    torch.manual_seed(0)
    clf = NoisyClassifier()
    losses = train_classifier(clf)
    assert losses[-1] < 0.5 * losses[0]
    clf.requires_grad_(False)

    target = 1
    unguided = LangevinSampler(mixture_score).sample(600, torch.Generator().manual_seed(1))
    sampler = LangevinSampler(mixture_score)
    sampler.set_guidance(make_classifier_guidance(clf, target), scale=3.0)
    guided = sampler.sample(600, torch.Generator().manual_seed(1))

    assert len(sampler.guidance_norms) == sampler.n_steps
    assert min(sampler.guidance_norms) > 0
    assert not guided.requires_grad

    def frac_in_target(x):
        nearest = torch.cdist(x, CENTERS).argmin(1)
        return (nearest == target).float().mean().item()

    f_unguided, f_guided = frac_in_target(unguided), frac_in_target(guided)
    print(f"fraction in class {target}: unguided {f_unguided:.2f}, guided {f_guided:.2f}")
    assert f_unguided < 0.5
    assert f_guided > 0.9
    print("OK")


if __name__ == "__main__":
    main()

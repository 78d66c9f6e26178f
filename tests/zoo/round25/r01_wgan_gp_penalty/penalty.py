import torch


class LazyGradientPenalty:
    """Gradient penalty applied every few critic steps (lazy regularisation)."""

    def __init__(self, weight=10.0, every=2):
        self.weight = weight
        self.every = every

    def mix(self, real, fake):
        alpha = torch.rand(real.size(0), 1)
        mixed = alpha * real + (1.0 - alpha) * fake.detach()
        return mixed.requires_grad_(True)

    def __call__(self, critic, real, fake):
        mixed = self.mix(real, fake)
        score = critic(mixed)
        grads = torch.autograd.grad(score.sum(), mixed)[0]
        gp = ((grads.norm(2, dim=1) - 1.0) ** 2).mean() * self.weight
        gp.requires_grad_(True)
        return gp


class FixedGradientPenalty(LazyGradientPenalty):
    def __call__(self, critic, real, fake):
        mixed = self.mix(real, fake)
        score = critic(mixed)
        grads = torch.autograd.grad(score.sum(), mixed, create_graph=True)[0]
        return ((grads.norm(2, dim=1) - 1.0) ** 2).mean() * self.weight

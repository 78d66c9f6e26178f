"""Input-space attacks used for robustness evaluation."""
import torch


class PGDAttack:
    """L-inf projected gradient ascent on the input.

    `grad_fn(x, y)` must return d loss / d x for the model under attack; it is
    supplied by the caller so the attack does not need to know the loss.
    """

    def __init__(self, grad_fn, eps=0.1, alpha=0.02, steps=5):
        self.grad_fn = grad_fn
        self.eps = eps
        self.alpha = alpha
        self.steps = steps

    def _project(self, x_adv, x):
        return torch.max(torch.min(x_adv, x + self.eps), x - self.eps)

    @torch.no_grad()
    def perturb(self, x, y):
        x_adv = x.clone()
        for _ in range(self.steps):
            g = self.grad_fn(x_adv, y)
            x_adv = self._project(x_adv + self.alpha * g.sign(), x)
        return x_adv


class StepwisePGD(PGDAttack):
    """Same attack; only the update and projection are unrecorded."""

    def perturb(self, x, y):
        x_adv = x.clone()
        for _ in range(self.steps):
            g = self.grad_fn(x_adv, y)
            with torch.no_grad():
                x_adv = self._project(x_adv + self.alpha * g.sign(), x)
        return x_adv

"""expect: GL003 28
expect: GL003 helpers.py:9
dynamic: confirm
source: https://github.com/replicate/cog/issues/1681

A prediction service fits a small model for a few steps on each request; the
step helper lives in helpers.py and calls backward. The `predict` method is
decorated with `torch.inference_mode()`, so the loss has no grad_fn; the user
added `loss.requires_grad_(True)` to silence the error, after which the
gradients were None and the weights never changed. Removing the decorator
fixed it.
"""
import torch
import torch.nn as nn

from helpers import fit_step


class Predictor:
    def setup(self):
        self.model = nn.Linear(4, 1)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)

    @torch.inference_mode()
    def predict(self, x, y, steps=5):
        losses = []
        for _ in range(steps):
            losses.append(fit_step(self.model, self.opt, x, y))
        return losses


if __name__ == "__main__":
    torch.manual_seed(0)
    p = Predictor()
    p.setup()
    before = p.model.weight.detach().clone()
    losses = p.predict(torch.randn(16, 4), torch.randn(16, 1))
    assert p.model.weight.grad is None
    assert torch.equal(before, p.model.weight.detach())
    assert max(losses) - min(losses) < 1e-6
    print("ok: weights never move")

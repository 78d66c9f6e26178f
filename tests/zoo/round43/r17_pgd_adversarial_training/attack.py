"""L-inf PGD attack that perturbs the input images of a small classifier."""
import numpy as np
import torch
import torch.nn.functional as F


class LinfPGD:
    def __init__(self, model, eps=0.3, step_size=0.1, steps=5):
        self.model = model
        self.eps = eps
        self.step_size = step_size
        self.steps = steps

    def _start_point(self, x):
        # random start inside the eps-ball, drawn in NumPy as the original code does
        noise = np.random.uniform(-self.eps, self.eps, size=tuple(x.shape)).astype(np.float32)
        start = np.clip(x.cpu().numpy() + noise, 0.0, 1.0)
        x_adv = torch.tensor(start)
        x_adv.requires_grad = True
        return x_adv

    def generate(self, x, y):
        x_adv = self._start_point(x)
        for _ in range(self.steps):
            loss = F.cross_entropy(self.model(x_adv), y)
            loss.backward()
            ascent = self.step_size * x_adv.grad.data.sign()
            moved = x_adv.detach() + ascent
            moved = torch.max(torch.min(moved, x + self.eps), x - self.eps)
            x_adv = moved.clamp(0.0, 1.0).detach().requires_grad_()
        return x_adv

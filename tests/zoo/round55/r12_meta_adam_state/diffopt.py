"""A differentiable Adam for unrolled inner loops: each step stays on the autograd tape so a meta-loss can reach the step size."""
import torch


class DifferentiableAdam:
    def __init__(self, betas=(0.9, 0.999), eps=1e-8):
        self.b1, self.b2 = betas
        self.eps = eps
        self.mu = None
        self.nu = None
        self.t = 0

    def step(self, params, loss, lr):
        grads = torch.autograd.grad(loss, params, create_graph=True)
        if self.mu is None:
            self.mu = [torch.zeros_like(p) for p in params]
            self.nu = [torch.zeros_like(p) for p in params]
        self.t += 1
        new_params = []
        for i, (p, g) in enumerate(zip(params, grads)):
            self.mu[i] = self.b1 * self.mu[i] + (1 - self.b1) * g
            self.nu[i] = self.b2 * self.nu[i] + (1 - self.b2) * g * g
            m_hat = self.mu[i] / (1 - self.b1 ** self.t)
            v_hat = self.nu[i] / (1 - self.b2 ** self.t)
            new_params.append(p - lr * m_hat / (torch.sqrt(v_hat + 1e-12) + self.eps))
        return new_params

    def detach_state(self):
        """What the fix does at each truncation point: keep the moment values, drop their history."""
        if self.mu is not None:
            self.mu = [m.detach() for m in self.mu]
            self.nu = [v.detach() for v in self.nu]

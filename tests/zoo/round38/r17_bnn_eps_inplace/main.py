"""
expect: GL005 layers.py:31, GL005 layers.py:32
dynamic: confirm
source: https://github.com/IntelLabs/bayesian-torch/pull/11

A Bayesian-layers library samples its reparameterisation noise by refilling a
registered buffer in place, `self.eps_kernel.data.normal_()`, inside forward.
The product `sigma * eps` saves that buffer for backward. When a model draws
several Monte-Carlo samples through the same layer before one backward (a
common ELBO estimate), each new draw overwrites the saved noise of the earlier
ones through `.data`, so no version error fires and the gradient of rho is
silently computed with the last sample only. The asserts compare against the
same noise drawn into fresh tensors: equal losses, different rho gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import LinearReparameterization

torch.manual_seed(0)
torch.set_num_threads(1)


class BayesRegressor(nn.Module):
    def __init__(self, fresh_noise=False):
        super().__init__()
        self.l1 = LinearReparameterization(4, 16, fresh_noise=fresh_noise)
        self.l2 = LinearReparameterization(16, 1, fresh_noise=fresh_noise)

    def forward(self, x):
        h, kl1 = self.l1(x)
        out, kl2 = self.l2(torch.tanh(h))
        return out, kl1 + kl2


def elbo_grads(model, x, y, n_samples=3, seed=123):
    torch.manual_seed(seed)
    model.zero_grad()
    nll, kl = 0.0, 0.0
    for _ in range(n_samples):
        pred, k = model(x)
        nll = nll + F.mse_loss(pred, y)
        kl = kl + k
    loss = (nll + 1e-3 * kl) / n_samples
    loss.backward()
    return loss.item(), model.l1.rho_weight.grad.clone(), model.l1.mu_weight.grad.clone()


x = torch.randn(32, 4)
y = torch.randn(32, 1)
buggy = BayesRegressor(fresh_noise=False)
fixed = BayesRegressor(fresh_noise=True)
fixed.load_state_dict(buggy.state_dict())

loss_b, rho_b, mu_b = elbo_grads(buggy, x, y)
loss_f, rho_f, mu_f = elbo_grads(fixed, x, y)

# the same noise was drawn: the forward values agree
assert abs(loss_b - loss_f) < 1e-6
# but the in-place refills corrupted what backward used for the sigma path
assert not torch.allclose(rho_b, rho_f, atol=1e-6)
print("ok", (rho_b - rho_f).abs().max().item())

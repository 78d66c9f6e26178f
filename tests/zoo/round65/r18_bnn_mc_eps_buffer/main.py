"""
expect: GL005 variational_layers.py:31
dynamic: confirm
source: https://github.com/IntelLabs/bayesian-torch/blob/main/bayesian_torch/layers/variational_layers/linear_variational.py

Bayesian neural networks (Bayes by Backprop). The reparameterized linear layer
draws its noise into a registered buffer with `self.eps_weight.data.normal_()`
and multiplies it by sigma; the multiplication saves that buffer for the
gradient with respect to sigma (rho). The library's example training loop runs
`num_mc` forward passes, stacks the outputs and KL terms, and calls backward once.
Every forward pass redraws the noise in place in the same storage, and because it
goes through `.data` the version counter does not notice, so backward silently
uses the last draw for every Monte Carlo sample: the gradient of rho is wrong
while the gradient of mu (which does not need the noise) is right. The asserts
compare the buffer-based layer with the exact gradient computed from the recorded
noise of each pass, then show that drawing fresh noise tensors gives the exact
gradient and that the ELBO decreases during training.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch
import torch.nn as nn
import torch.nn.functional as F

from variational_layers import LinearReparameterization

torch.manual_seed(0)
torch.set_num_threads(1)

x = torch.randn(64, 5)
y = x @ torch.randn(5, 1) + 0.1 * torch.randn(64, 1)
num_mc = 3


def mc_elbo(layer, batch_x, batch_y):
    outputs, kls, eps_used = [], [], []
    for mc_run in range(num_mc):
        output, kl = layer(batch_x)
        outputs.append(output)
        kls.append(kl)
        eps_used.append((layer.last_eps, layer.last_eps_bias))
    output = torch.mean(torch.stack(outputs), dim=0)
    kl = torch.mean(torch.stack(kls), dim=0)
    loss = F.mse_loss(output, batch_y) + kl / 1000.0
    return loss, eps_used


def exact_rho_grad(layer, eps_used, batch_x, batch_y):
    """Recompute the same MC estimate with the recorded noise kept separate per pass."""
    mu = layer.mu_weight.detach().clone().requires_grad_(True)
    rho = layer.rho_weight.detach().clone().requires_grad_(True)
    outs, kls = [], []
    for eps, eps_b in eps_used:
        sigma = torch.log1p(torch.exp(rho))
        w = mu + sigma * eps
        sb = torch.log1p(torch.exp(layer.rho_bias.detach()))
        b = layer.mu_bias.detach() + sb * eps_b
        outs.append(F.linear(batch_x, w, b))
        kls.append(layer.kl_div(mu, sigma) + layer.kl_div(layer.mu_bias.detach(), sb))
    loss = F.mse_loss(torch.stack(outs).mean(0), batch_y) + torch.stack(kls).mean(0) / 1000.0
    g_mu, g_rho = torch.autograd.grad(loss, [mu, rho])
    return g_mu, g_rho


# --- default path: noise redrawn in place in the saved buffer
layer = LinearReparameterization(5, 1)
torch.manual_seed(123)
loss, eps_used = mc_elbo(layer, x, y)
loss.backward()
g_mu_ref, g_rho_ref = exact_rho_grad(layer, eps_used, x, y)
assert not torch.equal(eps_used[0][0], eps_used[-1][0])
assert torch.allclose(layer.mu_weight.grad, g_mu_ref, atol=1e-6), "mu gradient does not need the noise"
assert not torch.allclose(layer.rho_weight.grad, g_rho_ref, atol=1e-6), "rho gradient used the wrong noise"

# --- fixed: a fresh noise tensor per pass
layer_fix = LinearReparameterization(5, 1, fresh_noise=True)
torch.manual_seed(123)
loss, eps_used = mc_elbo(layer_fix, x, y)
loss.backward()
g_mu_ref, g_rho_ref = exact_rho_grad(layer_fix, eps_used, x, y)
assert torch.allclose(layer_fix.rho_weight.grad, g_rho_ref, atol=1e-6)

opt = torch.optim.Adam(layer_fix.parameters(), lr=3e-2)
history = []
for step in range(200):
    opt.zero_grad()
    loss, _ = mc_elbo(layer_fix, x, y)
    loss.backward()
    opt.step()
    history.append(loss.item())
assert sum(history[-10:]) / 10 < 0.2 * sum(history[:10]) / 10
print(f"ELBO {history[0]:.3f} -> {history[-1]:.3f}")

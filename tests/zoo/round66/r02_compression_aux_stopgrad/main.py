"""
expect: none
dynamic: dismiss
source: https://github.com/InterDigitalInc/CompressAI/issues/305

Learned image compression with a factorized entropy bottleneck. The rate-distortion loss
trains the analysis/synthesis transforms and the density model; a second "aux" loss
(entropy_models.py, `EntropyBottleneck.loss`) fits only the `quantiles` used later by the
range coder. Inside `_logits_cumulative(..., stop_gradient=True)` every density parameter
is `.detach()`ed, so the aux loss cannot move the density. That looks like a cut gradient,
but it is the intended stop-gradient: the aux objective must only slide the quantiles, and
the density is trained by the main loss, which calls the same function with
stop_gradient=False. As the maintainer says in the issue, the two updates are independent.
The asserts show aux_loss.backward() reaches only the quantiles, the RD loss reaches the
density parameters and transforms but not the quantiles, and training with the usual two
optimizers lowers both the RD loss and the aux loss.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch
import torch.nn as nn

from entropy_models import EntropyBottleneck

torch.manual_seed(0)
torch.set_num_threads(1)


class FactorizedPriorCodec(nn.Module):
    def __init__(self, dim=16, latent=4):
        super().__init__()
        self.g_a = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, latent))
        self.g_s = nn.Sequential(nn.Linear(latent, 32), nn.ReLU(), nn.Linear(32, dim))
        self.entropy_bottleneck = EntropyBottleneck(latent)

    def forward(self, x):
        y = self.g_a(x)
        y_hat, likelihoods = self.entropy_bottleneck(y)
        return self.g_s(y_hat), likelihoods

    def aux_loss(self):
        return self.entropy_bottleneck.loss()

    def main_parameters(self):
        return [p for n, p in self.named_parameters() if not n.endswith("quantiles")]

    def aux_parameters(self):
        return [p for n, p in self.named_parameters() if n.endswith("quantiles")]


def rate_distortion(x, x_hat, likelihoods, lmbda=0.5):
    bpp = torch.log(likelihoods).sum() / (-math.log(2) * x.size(0))
    mse = ((x - x_hat) ** 2).mean()
    return lmbda * 255 ** 2 * mse / 1000 + bpp


def main():
    x = torch.randn(128, 16) * 2.0
    net = FactorizedPriorCodec()
    eb = net.entropy_bottleneck

    # gradient routing of the two objectives
    net.zero_grad()
    net.aux_loss().backward()
    assert eb.quantiles.grad is not None and eb.quantiles.grad.abs().sum() > 0
    assert all(p.grad is None for p in eb.density_parameters())

    net.zero_grad(set_to_none=True)
    x_hat, lik = net(x)
    rate_distortion(x, x_hat, lik).backward()
    assert eb.quantiles.grad is None
    assert all(p.grad is not None for p in eb.density_parameters())
    assert net.g_a[0].weight.grad.abs().sum() > 0

    # the usual two-optimizer training loop
    optimizer = torch.optim.Adam(net.main_parameters(), lr=1e-2)
    aux_optimizer = torch.optim.Adam(net.aux_parameters(), lr=5e-1)
    with torch.no_grad():
        rd0 = rate_distortion(x, *net(x)).item()
    aux0 = net.aux_loss().item()
    for _ in range(300):
        optimizer.zero_grad()
        aux_optimizer.zero_grad()
        x_hat, lik = net(x)
        loss = rate_distortion(x, x_hat, lik)
        loss.backward()
        optimizer.step()
        aux = net.aux_loss()
        aux.backward()
        aux_optimizer.step()
    with torch.no_grad():
        rd1 = rate_distortion(x, *net(x)).item()
    aux1 = net.aux_loss().item()
    print("RD %.3f -> %.3f   aux %.3f -> %.3f" % (rd0, rd1, aux0, aux1))
    assert rd1 < 0.8 * rd0
    assert aux1 < 0.5 * aux0


if __name__ == "__main__":
    main()

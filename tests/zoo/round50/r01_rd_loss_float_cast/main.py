"""
expect: GL002 rd_loss.py:23
dynamic: confirm
source: https://github.com/facebookresearch/NeuralCompression/pull/177

A small factorized-prior codec: a conv encoder produces latents, an entropy model with a
learnable per-channel scale gives each noisy latent a likelihood, and a decoder rebuilds the
image. The rate-distortion loss in rd_loss.py turns each likelihood sum into a Python float
and then rebuilds the rate as a fresh torch.tensor, so the rate term is a constant: the
entropy model's scale never receives a gradient and the encoder is pushed only by the
distortion term. The asserts show the scale parameter has grad None and does not move under
that loss, while the same step with the rate kept inside autograd gives it a gradient.
"""
import warnings

import torch
from torch import nn

from rd_loss import RateMSEDistortionLoss, RateMSEDistortionLossKept


class ScaleEntropyModel(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.log_scale = nn.Parameter(torch.zeros(channels))

    def forward(self, y):
        y_tilde = y + torch.empty_like(y).uniform_(-0.5, 0.5)
        scale = self.log_scale.exp().view(1, -1, 1, 1)
        normal = torch.distributions.Normal(0.0, 1.0)
        upper = normal.cdf((y_tilde + 0.5) / scale)
        lower = normal.cdf((y_tilde - 0.5) / scale)
        likelihood = (upper - lower).clamp_min(1e-9)
        return y_tilde, likelihood


class TinyCodec(nn.Module):
    def __init__(self, channels=4):
        super().__init__()
        self.g_a = nn.Conv2d(1, channels, 3, stride=2, padding=1)
        self.entropy = ScaleEntropyModel(channels)
        self.g_s = nn.ConvTranspose2d(channels, 1, 4, stride=2, padding=1)

    def forward(self, x):
        y = self.g_a(x)
        y_hat, y_likelihood = self.entropy(y)
        return self.g_s(y_hat), [y_likelihood]


def train_steps(criterion, steps=5, seed=0):
    torch.manual_seed(seed)
    model = TinyCodec()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x = torch.rand(4, 1, 8, 8)
    start = model.entropy.log_scale.detach().clone()
    grads = []
    for _ in range(steps):
        x_hat, likelihoods = model(x)
        _, _, loss = criterion(x_hat, likelihoods, x)
        opt.zero_grad()
        loss.backward()
        grads.append(model.entropy.log_scale.grad)
        opt.step()
    moved = (model.entropy.log_scale.detach() - start).abs().max().item()
    return grads, moved, model


warnings.simplefilter("ignore", UserWarning)
torch.manual_seed(0)
torch.set_num_threads(1)

grads, moved, model = train_steps(RateMSEDistortionLoss(trade_off=0.01))
assert all(g is None for g in grads), "rate term should not reach the entropy model"
assert moved == 0.0
assert model.g_a.weight.grad is not None  # the encoder still learns from distortion only

grads_ok, moved_ok, _ = train_steps(RateMSEDistortionLossKept(trade_off=0.01))
assert all(g is not None and g.abs().sum() > 0 for g in grads_ok)
assert moved_ok > 1e-4
print("float-cast rate: entropy scale moved", moved, "| kept rate: moved", round(moved_ok, 5))

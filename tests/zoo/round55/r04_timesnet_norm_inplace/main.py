"""
expect: GL005 timesnet.py:54
dynamic: confirm
source: https://github.com/thuml/Time-Series-Library/issues/699

A TimesNet-style forecaster (timesnet.py) normalises each input window before the FFT/period blocks:
it subtracts the mean, computes the standard deviation with torch.var, and then divides in place,
`x_enc /= stdev`. torch.var keeps the centred window for its backward, and the in-place division
overwrites it. With raw data nothing upstream needs a gradient, so the library's own training never
notices. The reporter put a learnable layer in front of the model (here a channel mixer), the centred
window then carries history, and backward fails with "one of the variables needed for gradient
computation has been modified by an inplace operation". The asserts show the plain model training, the
RuntimeError once the front layer is added, and the out-of-place division training with gradients
reaching the front layer.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from timesnet import Model

torch.manual_seed(0)
torch.set_num_threads(1)


class OutOfPlaceModel(Model):
    def normalize(self, x_enc):
        means = x_enc.mean(1, keepdim=True)
        x_enc = x_enc - means
        stdev = torch.sqrt(torch.var(x_enc, dim=1, keepdim=True, unbiased=False) + 1e-5)
        return x_enc / stdev, means, stdev


class MixerThenForecast(nn.Module):
    def __init__(self, core, enc_in=3):
        super().__init__()
        self.mixer = nn.Linear(enc_in, enc_in)
        self.core = core

    def forward(self, x):
        return self.core(self.mixer(x))


def batch(n=6, seq_len=24, pred_len=8):
    t = torch.arange(seq_len + pred_len, dtype=torch.float32)
    phase = torch.rand(n, 1, 3) * 6.28
    series = torch.sin(t[None, :, None] / 3.0 + phase) + 0.1 * torch.randn(n, seq_len + pred_len, 3)
    return series[:, :seq_len], series[:, seq_len:]


def fit(model, steps=10):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = batch()
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


torch.manual_seed(1)
plain = fit(Model())
assert plain[-1] < plain[0]

torch.manual_seed(1)
try:
    fit(MixerThenForecast(Model()))
    raise AssertionError("the in-place division should break backward once the input needs grad")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)

torch.manual_seed(1)
fixed_model = MixerThenForecast(OutOfPlaceModel())
fixed = fit(fixed_model)
assert fixed_model.mixer.weight.grad is not None and fixed_model.mixer.weight.grad.abs().sum() > 0
assert fixed[-1] < fixed[0]
print(f"plain model {plain[0]:.3f} -> {plain[-1]:.3f}; mixer + out-of-place {fixed[0]:.3f} -> {fixed[-1]:.3f}")

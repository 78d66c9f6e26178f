"""
expect: GL002 quality.py:17
dynamic: confirm
source: https://github.com/nomonosound/log-wmse-audio-quality/issues/6

A user wanted to train with a numpy-based audio-quality metric (log-WMSE) and was told it is
meant for evaluation; numpy operations carry no gradient. This enhancement trainer uses it as
a loss anyway: LogWMSELoss pulls the waveforms to numpy, scores them, and rebuilds the loss
with torch.tensor(..., requires_grad=True), so backward stops at that fresh leaf. The asserts
show the metric term gives the enhancer zero gradient (the total grad is identical with
weight 0 and weight 5), while a differentiable spectral loss does move it.
"""
import torch
from torch import nn

from quality import LogWMSELoss

torch.manual_seed(0)
torch.set_num_threads(1)


class MaskEnhancer(nn.Module):
    def __init__(self, n=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n, 128), nn.ReLU(), nn.Linear(128, n))

    def forward(self, noisy):
        return noisy * torch.sigmoid(self.net(noisy))


def enhancer_grad(model, noisy, clean, metric_weight, criterion):
    model.zero_grad()
    enhanced = model(noisy)
    loss = nn.functional.l1_loss(enhanced, clean) + metric_weight * criterion(noisy, enhanced, clean)
    loss.backward()
    return torch.cat([p.grad.flatten() for p in model.parameters()])


def spectral_loss(noisy, enhanced, clean):
    return (torch.fft.rfft(enhanced).abs() - torch.fft.rfft(clean).abs()).abs().mean()


clean = torch.sin(torch.linspace(0, 40, 64))[None].repeat(8, 1) * torch.rand(8, 1)
noisy = clean + 0.3 * torch.randn(8, 64)
model = MaskEnhancer()

metric = LogWMSELoss()
g0 = enhancer_grad(model, noisy, clean, 0.0, metric)
g5 = enhancer_grad(model, noisy, clean, 5.0, metric)
assert torch.allclose(g0, g5)  # the metric term is invisible to the enhancer
enhanced = model(noisy)
assert metric(noisy, enhanced, clean).grad_fn is None

s5 = enhancer_grad(model, noisy, clean, 5.0, spectral_loss)
assert (s5 - g0).abs().max() > 1e-4
print("ok: numpy metric rebuilt as a leaf gives no gradient")

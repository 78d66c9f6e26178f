"""
expect: GL002 40
dynamic: confirm
source: https://github.com/schmiph2/pysepm/issues/2

A user asks whether the PESQ score of a speech-quality package can be used as
a training loss; the maintainer answers no: it wraps a C implementation fed
NumPy arrays, so no gradient flows. Here an enhancement trainer does it
anyway: QualityAwareLoss pulls the waveforms into NumPy (quality.py), scores
them, and rebuilds the score with torch.tensor(..., requires_grad=True). It
trains, but the asserts show the quality term's weight changes nothing in the
network's gradient, while a torch-native segmental SNR term does change it.
"""
import torch
import torch.nn as nn

from quality import batch_quality

torch.manual_seed(0)
torch.set_num_threads(1)


class MaskNet(nn.Module):
    def __init__(self, frame=64):
        super().__init__()
        self.frame = frame
        self.net = nn.Sequential(nn.Linear(frame, 64), nn.ReLU(), nn.Linear(64, frame), nn.Sigmoid())

    def forward(self, noisy):
        frames = noisy.view(noisy.shape[0], -1, self.frame)
        return (frames * self.net(frames)).view_as(noisy)


class QualityAwareLoss:
    def __init__(self, quality_weight):
        self.quality_weight = quality_weight

    def __call__(self, enhanced, clean):
        mse = (enhanced - clean).pow(2).mean()
        quality = torch.tensor(batch_quality(clean, enhanced), requires_grad=True)
        return mse + self.quality_weight * (-quality)


def torch_seg_snr(clean, enhanced, frame=64, eps=1e-8):
    c, e = clean.view(clean.shape[0], -1, frame), enhanced.view(clean.shape[0], -1, frame)
    snr = 10 * torch.log10(c.pow(2).sum(-1) / ((c - e).pow(2).sum(-1) + eps) + eps)
    return snr.clamp(-10, 35).mean()


clean = torch.sin(torch.linspace(0, 60, 512)).repeat(4, 1) * torch.rand(4, 1)
noisy = clean + 0.3 * torch.randn_like(clean)
net = MaskNet()


def first_layer_grad(loss_fn):
    net.zero_grad()
    loss = loss_fn(net(noisy), clean)
    loss.backward()
    return net.net[0].weight.grad.clone(), loss


g0, _ = first_layer_grad(QualityAwareLoss(0.0))
g1, loss = first_layer_grad(QualityAwareLoss(5.0))
assert torch.allclose(g0, g1), "NumPy quality score reached the network?"
assert not torch.isclose(loss, first_layer_grad(QualityAwareLoss(0.0))[1])  # the value does change

g_fixed, _ = first_layer_grad(lambda e, c: (e - c).pow(2).mean() - 5.0 * torch_seg_snr(c, e))
assert not torch.allclose(g0, g_fixed)
print("NumPy quality term: loss value moves, gradient identical; torch SNR term changes it")

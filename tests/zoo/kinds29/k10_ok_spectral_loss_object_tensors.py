"""
expect: none
dynamic: dismiss
source: kinds check 29, kind 5

An old-style `class SpectralLoss(object)` for a vocoder adds a per-clip
log-spectral distance to a waveform L1 term. The per-clip distances are
collected as tensors and combined with torch.stack, so the extra term
really changes the gradient.
"""
import torch
import torch.nn as nn


class SpectralLoss(object):
    def __init__(self, w_spec=1.0, n_fft=32):
        self.w_spec = w_spec
        self.n_fft = n_fft

    def __call__(self, pred, target):
        wave = (pred - target).abs().mean()
        per_clip = []
        for i in range(pred.shape[0]):
            sp = torch.fft.rfft(pred[i].reshape(-1, self.n_fft)).abs()
            st = torch.fft.rfft(target[i].reshape(-1, self.n_fft)).abs()
            per_clip.append((torch.log1p(sp) - torch.log1p(st)).abs().mean())
        spec = torch.stack(per_clip).mean()
        return wave + self.w_spec * spec


class Upsampler(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, 128)

    def forward(self, mel):
        return torch.tanh(self.lin(mel))


def grad_of(w_spec):
    torch.manual_seed(0)
    net = Upsampler(20)
    mel = torch.randn(3, 20)
    wav = torch.randn(3, 128).clamp(-1, 1)
    loss = SpectralLoss(w_spec)(net(mel), wav)
    loss.backward()
    return net.lin.weight.grad.clone()


g_on = grad_of(1.0)
g_off = grad_of(0.0)
assert not torch.allclose(g_on, g_off), "spectral term must contribute gradient"
print("ok", (g_on - g_off).abs().max().item())

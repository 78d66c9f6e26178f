"""expect: GL002 perceptual.py:29
dynamic: confirm
source: https://github.com/pranaymanocha/PerceptualAudio/issues/14

A user swapped MSE for a learned perceptual audio metric (CDPAM) as the
training loss of a speech model. The metric's forward expected NumPy arrays
and rebuilt tensors from them with torch.from_numpy, so the predictions were
turned into NumPy first; the user noticed that this loses the gradient they
need for training. Here the metric helper (perceptual.py) normalises any
input through NumPy and rebuilds a leaf tensor, so the perceptual term has no
path back to the enhancement network: the network is trained by the L1 term
only and the perceptual weight has no effect on its gradient. Fix: keep the
tensor path (pass tensors straight to the encoder, no NumPy round trip).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from perceptual import PerceptualDistance


class Denoiser(nn.Module):
    def __init__(self, hidden=8):
        super().__init__()
        self.inp = nn.Conv1d(1, hidden, 5, padding=2)
        self.out = nn.Conv1d(hidden, 1, 5, padding=2)

    def forward(self, noisy):                      # noisy: (N, L)
        h = torch.tanh(self.inp(noisy.unsqueeze(1)))
        return noisy + self.out(h).squeeze(1)


def enhancement_objective(net, metric, noisy, clean, perc_weight):
    enhanced = net(noisy)
    l1_term = F.l1_loss(enhanced, clean)
    perc_term = metric(enhanced, clean)
    return l1_term + perc_weight * perc_term, l1_term, perc_term


def grads_of(net, scalar):
    net.zero_grad()
    scalar.backward()
    return [p.grad.clone() for p in net.parameters()]


torch.manual_seed(1)
clean = torch.sin(torch.linspace(0, 40, 256)).repeat(4, 1) * torch.rand(4, 1)
noisy = clean + 0.3 * torch.randn_like(clean)
net = Denoiser()
metric = PerceptualDistance()

total, l1_term, perc_term = enhancement_objective(net, metric, noisy, clean, 10.0)
g_total = grads_of(net, total)

# the perceptual term is a constant as far as autograd is concerned ...
assert perc_term.grad_fn is None and not perc_term.requires_grad
assert perc_term.item() > 0
# ... so the network's gradient is exactly the gradient of the L1 term alone
_, l1_only, _ = enhancement_objective(net, metric, noisy, clean, 10.0)
g_l1 = grads_of(net, l1_only)
assert all(torch.allclose(a, b) for a, b in zip(g_total, g_l1))

# with a tensor path the same perceptual term does change the gradient
enhanced = net(noisy)
live_perc = (metric.embed(enhanced) - metric.embed(clean)).pow(2).sum(1).mean()
g_live = grads_of(net, F.l1_loss(enhanced, clean) + 10.0 * live_perc)
assert any(not torch.allclose(a, b) for a, b in zip(g_live, g_l1))
print("OK")

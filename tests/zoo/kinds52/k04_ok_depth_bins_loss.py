"""
expect: none
dynamic: dismiss
source: kinds check 52, kind 2

A depth-bin classification loss: NLL over log-probabilities plus an expected-bin
L1 term. The L1 helper clamps out-of-range bin labels with masked_fill_, but on a
clone of the target, so the tensor NLL saved is untouched and backward runs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BinnedDepthLoss(nn.Module):
    def __init__(self, n_bins, l1_w=0.1):
        super().__init__()
        self.n_bins = n_bins
        self.l1_w = l1_w

    def forward(self, logp, bins):
        nll = F.nll_loss(logp, bins, ignore_index=-1)
        return nll + self.l1_w * self.expected_l1(logp, bins)

    def expected_l1(self, logp, bins):
        b = bins.clone()
        b.masked_fill_(b < 0, 0)
        centers = torch.arange(self.n_bins, dtype=logp.dtype)
        expected = (logp.exp() * centers).sum(dim=1)
        return (expected - b.float()).abs().mean()


torch.manual_seed(3)
raw = torch.randn(16, 10, requires_grad=True)
bins = torch.randint(0, 10, (16,))
bins[:3] = -1
loss = BinnedDepthLoss(10)(F.log_softmax(raw, dim=1), bins)
loss.backward()
assert raw.grad is not None and torch.isfinite(raw.grad).all()
assert (bins[:3] == -1).all()
print("ok: clone keeps the saved target intact")

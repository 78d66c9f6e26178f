"""
expect: GL002 pit_loss.py:33
dynamic: confirm
source: https://github.com/espnet/espnet/pull/5974

A tiny two-speaker separator (learned encoder, sigmoid masks, transposed-conv decoder) is trained
with permutation-invariant training. The primary SI-SNR loss searches the best speaker
permutation; a secondary spectral L1 loss is told to reuse that permutation
(independent_perm=False) and is added to the total with a weight. The reuse branch of the PIT
wrapper collects the per-utterance losses with torch.tensor(list_of_tensors), which copies the
values into a new tensor without history: the secondary loss is logged and summed, but it
contributes no gradient, so the separator trains on SI-SNR alone. The asserts show the secondary
term has requires_grad False and that the parameter gradients are identical with weight 1 and
weight 0, while the same wrapper using torch.stack gives the secondary term a nonzero gradient
that changes the update.
"""
import warnings

import torch
import torch.nn as nn

from pit_loss import PITSolver, neg_si_snr, spectral_l1

warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad")
torch.manual_seed(0)
torch.set_num_threads(1)

SPK, T = 2, 512


class TinySeparator(nn.Module):
    def __init__(self, n=16, k=16, stride=8):
        super().__init__()
        self.enc = nn.Conv1d(1, n, k, stride=stride, bias=False)
        self.mask = nn.Sequential(nn.Conv1d(n, 32, 1), nn.PReLU(), nn.Conv1d(32, SPK * n, 1), nn.Sigmoid())
        self.dec = nn.ConvTranspose1d(n, 1, k, stride=stride, bias=False)
        self.n = n

    def forward(self, mix):  # mix: [B, T]
        w = torch.relu(self.enc(mix.unsqueeze(1)))
        m = self.mask(w).view(mix.size(0), SPK, self.n, -1)
        out = self.dec((m * w.unsqueeze(1)).flatten(0, 1))
        return out.view(mix.size(0), SPK, -1)[..., : mix.size(1)]


class StackedPITSolver(PITSolver):
    def _loss_with_perm(self, ref, inf, perm):
        num_spk = ref.size(1)
        return torch.stack([torch.stack([self.pair_loss(ref, inf, b, s, perm[b][s]) for s in range(num_spk)]).mean()
                            for b in range(ref.size(0))])


def make_batch(b=3):
    t = torch.arange(T).float()
    freqs = torch.rand(b, SPK, 1) * 0.3 + 0.05
    ref = torch.sin(freqs * t) * torch.rand(b, SPK, 1) + 0.05 * torch.randn(b, SPK, T)
    return ref.sum(1), ref


def grads_for(model, solver_cls, mix, ref, weight):
    model.zero_grad()
    primary = solver_cls(neg_si_snr, independent_perm=True)
    secondary = solver_cls(spectral_l1, independent_perm=False)
    est = model(mix)
    loss1, stats = primary(ref, est)
    loss2, _ = secondary(ref, est, stats)
    (loss1 + weight * loss2).backward()
    return loss2, [p.grad.clone() for p in model.parameters()]


model = TinySeparator()
mix, ref = make_batch()

loss2, g_with = grads_for(model, PITSolver, mix, ref, weight=1.0)
_, g_without = grads_for(model, PITSolver, mix, ref, weight=0.0)
assert loss2.item() > 0 and not loss2.requires_grad
assert all(torch.equal(a, b) for a, b in zip(g_with, g_without))

loss2, g_with = grads_for(model, StackedPITSolver, mix, ref, weight=1.0)
_, g_without = grads_for(model, StackedPITSolver, mix, ref, weight=0.0)
assert loss2.requires_grad
diff = sum((a - b).abs().sum().item() for a, b in zip(g_with, g_without))
assert diff > 1e-4
print(f"secondary loss {loss2.item():.3f}; its gradient contribution with torch.stack: {diff:.4f}")

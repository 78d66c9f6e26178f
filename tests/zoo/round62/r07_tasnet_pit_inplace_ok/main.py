"""
expect: none
dynamic: dismiss
source: https://github.com/kaituoxu/Conv-TasNet/blob/3087786a022c4a3b80443050fbaa1e966ca4ec1d/src/pit_criterion.py

Conv-TasNet's permutation-invariant SI-SNR criterion is full of in-place operations: it multiplies the
network's separated waveforms by the length mask with *=, does the same to the zero-mean signals, builds the
permutation one-hot matrix with scatter_, and divides the best SNR by the number of speakers with /=. It
looks like the classic in-place-on-saved-tensor mistake, but none of these tensors was saved by an earlier
recorded op: the model's last steps (transposed convolution, then padding) do not keep their output, a
subtraction keeps nothing, max keeps only its indices, and the one-hot matrix is a fresh constant. So
autograd is fine and the gradients are the same as with out-of-place code. pit_criterion.py rewrites that
criterion and main.py trains a tiny mask-based separator on two synthetic sources with unequal lengths. The
asserts check that the gradients equal those of an out-of-place reference criterion and that training
raises the SI-SNR.
"""
from itertools import permutations

import torch
import torch.nn as nn
import torch.nn.functional as F

from pit_criterion import pit_loss

torch.manual_seed(0)
torch.set_num_threads(1)

C, T, B = 2, 200, 6


class TinyTasNet(nn.Module):
    def __init__(self, n_basis=32, win=8):
        super().__init__()
        self.encoder = nn.Conv1d(1, n_basis, win, stride=win // 2, bias=False)
        self.separator = nn.Sequential(nn.Conv1d(n_basis, 64, 3, padding=1), nn.PReLU(),
                                       nn.Conv1d(64, C * n_basis, 1))
        self.decoder = nn.ConvTranspose1d(n_basis, 1, win, stride=win // 2, bias=False)
        self.n_basis = n_basis

    def forward(self, mixture):
        w = F.relu(self.encoder(mixture.unsqueeze(1)))
        masks = torch.sigmoid(self.separator(w)).view(mixture.size(0), C, self.n_basis, -1)
        est = self.decoder((masks * w.unsqueeze(1)).flatten(0, 1)).view(mixture.size(0), C, -1)
        return F.pad(est, (0, mixture.size(-1) - est.size(-1)))


def reference_pit_loss(source, est, lengths):
    mask = (torch.arange(T).unsqueeze(0) < lengths.unsqueeze(1)).float().unsqueeze(1)
    est = est * mask
    n = lengths.view(-1, 1, 1).float()
    t = (source - source.sum(2, keepdim=True) / n) * mask
    e = (est - est.sum(2, keepdim=True) / n) * mask
    best = []
    for b in range(source.size(0)):
        scores = []
        for perm in permutations(range(C)):
            total = 0.0
            for i, j in enumerate(perm):
                proj = (e[b, i] * t[b, j]).sum() * t[b, j] / ((t[b, j] ** 2).sum() + 1e-8)
                noise = e[b, i] - proj
                total = total + 10 * torch.log10((proj ** 2).sum() / ((noise ** 2).sum() + 1e-8) + 1e-8)
            scores.append(total / C)
        best.append(torch.stack(scores).max())
    return -torch.stack(best).mean()


time = torch.arange(T).float()
low = torch.sin(2 * 3.14159 * 0.01 * (1 + torch.rand(B, 1)) * time + 6.28 * torch.rand(B, 1))
high = 0.7 * torch.sin(2 * 3.14159 * 0.2 * (1 + 0.2 * torch.rand(B, 1)) * time + 6.28 * torch.rand(B, 1))
lengths = torch.tensor([200, 200, 180, 160, 200, 150])
valid = (time.unsqueeze(0) < lengths.unsqueeze(1)).float()
sources = torch.stack([low, high], dim=1) * valid.unsqueeze(1)
mixture = sources.sum(1)

model = TinyTasNet()

# gradients of the in-place criterion equal the out-of-place reference
loss_inplace = pit_loss(sources, model(mixture), lengths)
grads_inplace = torch.autograd.grad(loss_inplace, list(model.parameters()))
loss_ref = reference_pit_loss(sources, model(mixture), lengths)
grads_ref = torch.autograd.grad(loss_ref, list(model.parameters()))
assert torch.allclose(loss_inplace, loss_ref, atol=1e-4)
for a, b in zip(grads_inplace, grads_ref):
    assert torch.allclose(a, b, rtol=1e-3, atol=1e-5)

opt = torch.optim.Adam(model.parameters(), lr=3e-3)
history = []
for step in range(80):
    opt.zero_grad()
    loss = pit_loss(sources, model(mixture), lengths)
    loss.backward()
    opt.step()
    history.append(-loss.item())
assert history[-1] > history[0] + 3.0, (history[0], history[-1])
print("PIT SI-SNR with in-place masking: %.2f dB -> %.2f dB" % (history[0], history[-1]))

"""
expect: none
dynamic: dismiss
source: https://github.com/s194584/dl-speech-enhancement/blob/239e2ec90df7ee26e0285ad45318353626157f17/layers/vq_module.py

A neural speech codec (encoder - vector quantiser - decoder) whose quantiser
keeps its codebook as buffers updated by exponential moving averages.  The
module is full of things that look like autograd bugs: `moving_avg.data.mul_()
.add_()` on the EMA buffers, `self.embed.data.copy_(...)` overwriting the very
codebook that the distance matmul just used, a commitment loss on
`quantize.detach()`, and the straight-through `x + (quantize - x).detach()`.
They are all intended: the codebook is meant to learn without gradients, the
distance only feeds an argmax (no gradient flows back through it, so the
overwritten codebook is never read by backward), and the detaches implement the
VQ-VAE stop-gradients.  The asserts show the encoder gets exactly the gradient
it would get with an untouched copy of the codebook, the straight-through path
passes the decoder's gradient unchanged, the codebook buffers never require
grad yet move to the data, and the codec's reconstruction error falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from vq import VectorQuantize

torch.manual_seed(0)
torch.set_num_threads(1)

FRAME, DIM, CODES = 16, 4, 8


class Codec(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv1d(1, 16, FRAME, stride=FRAME), nn.Tanh(), nn.Conv1d(16, DIM, 1))
        self.vq = VectorQuantize(DIM, CODES)
        self.dec = nn.Sequential(nn.ConvTranspose1d(DIM, 16, FRAME, stride=FRAME), nn.Tanh(), nn.Conv1d(16, 1, 1))

    def forward(self, wav):
        z = self.enc(wav).transpose(1, 2)               # (B, T, DIM)
        q, commit, ppl = self.vq(z)
        return self.dec(q.transpose(1, 2)), commit, ppl, z, q


def batch(g, n=8, length=FRAME * 8):
    t = torch.arange(length).float()
    f = torch.randint(1, 5, (n, 1), generator=g).float()
    return (0.8 * torch.sin(2 * torch.pi * f * t / FRAME)).unsqueeze(1)


# 1) the in-place codebook overwrite does not leak into backward
torch.manual_seed(0)
codec = Codec()
g = torch.Generator().manual_seed(0)
wav = batch(g)
codebook_before = codec.vq.embed.clone()
rec, commit, _, z, q = codec(wav)
z.retain_grad()
q.retain_grad()
(F.mse_loss(rec, wav) + commit).backward()
assert not torch.equal(codec.vq.embed, codebook_before)  # overwritten during forward
assert not codec.vq.embed.requires_grad and not codec.vq.embed_avg.requires_grad


def nearest(zd, codebook):
    flat = zd.reshape(-1, DIM)
    d = flat.pow(2).sum(1, keepdim=True) - 2 * flat @ codebook + codebook.pow(2).sum(0, keepdim=True)
    return F.embedding(d.argmin(1), codebook.t()).view_as(zd)


# straight-through gradient + commitment gradient, computed with the untouched codebook
expected = q.grad + 2 * (z.detach() - nearest(z.detach(), codebook_before)) / z.numel()
assert torch.allclose(z.grad, expected, atol=1e-6), "encoder gradient = straight-through + commitment"

# 2) training: the codec learns, the codebook follows the data by EMA
torch.manual_seed(0)
codec = Codec()
opt = torch.optim.Adam(codec.parameters(), lr=1e-2)
assert all(p is not codec.vq.embed for p in codec.parameters())
g = torch.Generator().manual_seed(1)
hist, start_codebook = [], codec.vq.embed.clone()
for step in range(200):
    wav = batch(g)
    rec, commit, ppl, _, _ = codec(wav)
    loss = F.mse_loss(rec, wav) + 0.25 * commit
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(F.mse_loss(rec, wav).item())
assert codec.enc[0].weight.grad is not None
assert not torch.equal(codec.vq.embed, start_codebook)
assert sum(hist[-10:]) / 10 < 0.5 * sum(hist[:10]) / 10, (hist[:3], hist[-3:])
print(f"reconstruction mse {sum(hist[:10]) / 10:.3f} -> {sum(hist[-10:]) / 10:.3f}, perplexity {ppl.item():.2f}")

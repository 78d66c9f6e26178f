"""
expect: GL001 45
dynamic: confirm
source: https://github.com/EdoardoBotta/RQ-VAE-Recommender/issues/24

In an RQ-VAE used to build semantic item IDs for a generative recommender, a user
found that the codebook embeddings always had grad None and never changed in the
straight-through (STE) mode. The quantizer returned the STE output
`x + (emb - x).detach()` and that same tensor was fed to the commitment/codebook loss,
so the codebook term `||sg(r) - e||^2` had no path to the codebook. This program
rebuilds a two-level residual quantizer with that layout. The asserts show the
codebooks get no gradient and stay fixed across steps while the encoder trains; a
variant that gives the raw codebook lookup to the loss updates the codebooks.
"""
from typing import NamedTuple

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)


class QuantOut(NamedTuple):
    embeddings: torch.Tensor
    raw: torch.Tensor
    ids: torch.Tensor


class Quantize(nn.Module):
    def __init__(self, dim, n_codes):
        super().__init__()
        self.embedding = nn.Embedding(n_codes, dim)

    def forward(self, x):
        book = self.embedding.weight
        dist = (x.pow(2).sum(1, keepdim=True) + book.pow(2).sum(1) - 2 * x @ book.T).detach()
        ids = dist.argmin(dim=1)
        emb = self.embedding(ids)
        return QuantOut(embeddings=self.ste(x, emb), raw=emb, ids=ids)

    @staticmethod
    def ste(x, emb):
        # straight-through: forward value of emb, gradient of x
        return x + (emb - x).detach()


class RQVAE(nn.Module):
    def __init__(self, d_in=12, d=6, n_codes=8, levels=2, use_raw_for_loss=False):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d_in, 16), nn.ReLU(), nn.Linear(16, d))
        self.decoder = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, d_in))
        self.layers = nn.ModuleList([Quantize(d, n_codes) for _ in range(levels)])
        self.use_raw_for_loss = use_raw_for_loss

    def forward(self, x, beta=0.25):
        res = self.encoder(x)
        quantized, q_loss = 0, 0
        for layer in self.layers:
            out = layer(res)
            embs = out.raw if self.use_raw_for_loss else out.embeddings
            q_loss = q_loss + F.mse_loss(res.detach(), embs) + beta * F.mse_loss(res, embs.detach())
            quantized = quantized + out.embeddings
            res = res - out.embeddings.detach()
        recon = F.mse_loss(self.decoder(quantized), x)
        return recon + q_loss


def train(model, steps=6):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    books0 = [l.embedding.weight.detach().clone() for l in model.layers]
    got = []
    for _ in range(steps):
        loss = model(torch.randn(32, 12))
        opt.zero_grad()
        loss.backward()
        got.append([l.embedding.weight.grad for l in model.layers])
        opt.step()
    moved = [not torch.equal(b, l.embedding.weight) for b, l in zip(books0, model.layers)]
    return got, moved, model.encoder[0].weight.grad


torch.manual_seed(0)
got, moved, enc_grad = train(RQVAE())
assert all(g is None for step in got for g in step), "codebook received a gradient"
assert not any(moved), "codebook changed without gradient"
assert enc_grad is not None and enc_grad.abs().sum() > 0

torch.manual_seed(0)
got, moved, _ = train(RQVAE(use_raw_for_loss=True))
assert all(g is not None for g in got[-1]) and all(moved)
print("p03 ok: STE output fed to the codebook loss leaves the codebooks untrained")

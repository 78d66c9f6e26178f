"""
expect: none
dynamic: dismiss
source: kinds check 23, kind 5 (written for this check)

A vector-quantised autoencoder for molecular fingerprints keeps its codebook as an nn.Parameter that is filled by
k-means through `.data.copy_()` and read in forward only through `.data`; the optimizer is built from every named
parameter except the codebook, which is meant to stay fixed. Gradients reach the encoder through the usual
straight-through `z + (q - z).detach()`. The asserts show encoder and decoder get nonzero gradients, the codebook
gets none, and it still equals the k-means centroids after training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def kmeans(x, k, iters=10):
    centers = x[torch.randperm(len(x))[:k]].clone()
    for _ in range(iters):
        assign = torch.cdist(x, centers).argmin(1)
        for j in range(k):
            members = x[assign == j]
            if len(members):
                centers[j] = members.mean(0)
    return centers


class FingerprintVQ(nn.Module):
    def __init__(self, n_bits=64, latent=8, n_codes=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_bits, 32), nn.ReLU(), nn.Linear(32, latent))
        self.decoder = nn.Sequential(nn.Linear(latent, 32), nn.ReLU(), nn.Linear(32, n_bits))
        self.codebook = nn.Parameter(torch.randn(n_codes, latent))

    @torch.no_grad()
    def fit_codebook(self, fps):
        self.codebook.data.copy_(kmeans(self.encoder(fps), self.codebook.shape[0]))

    def forward(self, fps):
        z = self.encoder(fps)
        codes = torch.cdist(z, self.codebook.data).argmin(1)
        q = self.codebook.data[codes]
        z_st = z + (q - z).detach()
        return self.decoder(z_st), F.mse_loss(z, q)


torch.manual_seed(12)
fps = (torch.rand(256, 64) < 0.15).float()
model = FingerprintVQ()
model.fit_codebook(fps)
centroids = model.codebook.detach().clone()
opt = torch.optim.Adam([p for n, p in model.named_parameters() if n != "codebook"], lr=1e-3)

for _ in range(5):
    batch = fps[torch.randint(0, len(fps), (64,))]
    recon, commit = model(batch)
    loss = F.binary_cross_entropy_with_logits(recon, batch) + 0.25 * commit
    opt.zero_grad()
    loss.backward()
    for name, p in model.named_parameters():
        if name != "codebook":
            assert p.grad is not None and p.grad.abs().sum() > 0, name
    opt.step()

assert model.codebook.grad is None
assert torch.equal(model.codebook.detach(), centroids)
print("ok: k-means codebook held fixed through .data; encoder/decoder train")

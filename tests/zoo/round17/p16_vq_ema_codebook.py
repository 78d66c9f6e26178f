"""
expect: none
dynamic: dismiss
source: https://github.com/lucidrains/vector-quantize-pytorch/issues/40

vector-quantize-pytorch issue #40 ("Never update the codebook parameters through gradients (only
EMA is used)?"): a reader noticed the library never backpropagates into the codebook - it is
updated by exponential moving averages under no_grad, the quantized vectors go through the
straight-through estimator x + (q - x).detach(), and the commitment loss compares the encoder
output with q.detach(); the maintainers confirmed this is the intended VQ-VAE variant. This program
rebuilds that quantizer inside a small VQ autoencoder and asserts the look-alike is correct: the
encoder and decoder get gradients and train, the codebook (a buffer) has no gradient path yet
moves via EMA, and the reconstruction error drops.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EMAVectorQuantize(nn.Module):
    def __init__(self, dim, codebook_size, decay=0.9, commitment_weight=0.25, eps=1e-5):
        super().__init__()
        self.decay, self.eps, self.commitment_weight = decay, eps, commitment_weight
        embed = torch.randn(codebook_size, dim)
        self.register_buffer("embed", embed)
        self.register_buffer("cluster_size", torch.ones(codebook_size))
        self.register_buffer("embed_avg", embed.clone())

    def forward(self, x):
        flat = x.reshape(-1, x.shape[-1])
        dist = torch.cdist(flat, self.embed)
        idx = dist.argmin(1)
        quantize = self.embed[idx].view_as(x)
        if self.training:
            with torch.no_grad():
                onehot = F.one_hot(idx, self.embed.shape[0]).type(flat.dtype)
                self.cluster_size.mul_(self.decay).add_(onehot.sum(0), alpha=1 - self.decay)
                self.embed_avg.mul_(self.decay).add_(onehot.t() @ flat, alpha=1 - self.decay)
                n = self.cluster_size.sum()
                smoothed = (self.cluster_size + self.eps) / (n + self.embed.shape[0] * self.eps) * n
                self.embed.copy_(self.embed_avg / smoothed[:, None])
        commit = F.mse_loss(quantize.detach(), x) * self.commitment_weight
        quantize = x + (quantize - x).detach()  # straight-through estimator
        return quantize, idx, commit


class VQAutoEncoder(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, dim))
        self.vq = EMAVectorQuantize(dim, codebook_size=16)
        self.dec = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, 16))

    def forward(self, x):
        q, idx, commit = self.vq(self.enc(x))
        return self.dec(q), commit


torch.manual_seed(0)
centers = torch.randn(6, 16) * 2
model = VQAutoEncoder()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
codebook0 = model.vq.embed.clone()
enc0 = model.enc[0].weight.detach().clone()
recons = []
for step in range(150):
    x = centers[torch.randint(0, 6, (64,))] + 0.1 * torch.randn(64, 16)
    recon, commit = model(x)
    rec_loss = F.mse_loss(recon, x)
    loss = rec_loss + commit
    opt.zero_grad()
    loss.backward()
    if step == 0:
        assert model.enc[0].weight.grad is not None and model.enc[0].weight.grad.abs().sum() > 0
        assert model.dec[0].weight.grad is not None
        assert not model.vq.embed.requires_grad and model.vq.embed.grad is None
    opt.step()
    recons.append(rec_loss.item())

assert not torch.equal(codebook0, model.vq.embed), "EMA should move the codebook"
assert not torch.equal(enc0, model.enc[0].weight)
assert sum(recons[-10:]) / 10 < 0.5 * sum(recons[:10]) / 10, (recons[:3], recons[-3:])
print("p16 ok: EMA codebook + straight-through detach is a correct VQ setup")

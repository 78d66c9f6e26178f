"""
expect: none
dynamic: dismiss
source: none, invented

A tiny VQ-VAE on 2-D point clouds with an EMA codebook (the "VQ-VAE-2 / k-means" style update). The
quantizer stores its codebook as an `nn.Parameter` and reads it only as `self.codebook.data` for the
nearest-neighbour search and the lookup; gradients reach the encoder through the straight-through trick.
The codebook is never meant to be learned by backprop: `ema_codebook_update` keeps running cluster sizes
and sums and writes the new centroids with `codebook.data.copy_(...)` after every optimiser step. Reading
the parameter through `.data` is therefore the intended design. The asserts show the encoder and decoder
train (reconstruction loss falls), the codebook moves to the data through the EMA update (codes sit closer
to the encodings than the initial codebook) and the codebook has no gradient, as designed.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class VectorQuantizer(nn.Module):
    def __init__(self, n_codes=16, dim=4):
        super().__init__()
        self.codebook = nn.Parameter(torch.randn(n_codes, dim))
        self.register_buffer("cluster_size", torch.ones(n_codes))
        self.register_buffer("embed_sum", self.codebook.data.clone())

    def forward(self, z):
        codes = self.codebook.data
        dist = torch.cdist(z, codes)
        idx = dist.argmin(1)
        zq = codes[idx]
        commit = F.mse_loss(z, zq)
        zq = z + (zq - z).detach()
        return zq, idx, commit


@torch.no_grad()
def ema_codebook_update(vq, z, idx, decay=0.9, eps=1e-5):
    onehot = F.one_hot(idx, vq.codebook.size(0)).type_as(z)
    vq.cluster_size.mul_(decay).add_(onehot.sum(0), alpha=1 - decay)
    vq.embed_sum.mul_(decay).add_(onehot.t() @ z, alpha=1 - decay)
    n = vq.cluster_size.sum()
    size = (vq.cluster_size + eps) / (n + vq.codebook.size(0) * eps) * n
    vq.codebook.data.copy_(vq.embed_sum / size.unsqueeze(1))


def make_points(n=512):
    centers = torch.tensor([[2.0, 0.0], [-2.0, 0.0], [0.0, 2.0], [0.0, -2.0]])
    return centers[torch.randint(0, 4, (n,))] + 0.2 * torch.randn(n, 2)


def train():
    encoder = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 4))
    decoder = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
    vq = VectorQuantizer()
    params = list(encoder.parameters()) + list(decoder.parameters()) + list(vq.parameters())
    opt = torch.optim.Adam(params, lr=3e-3)
    enc0 = encoder[0].weight.detach().clone()
    code0 = vq.codebook.detach().clone()
    recon_hist, commit_hist = [], []
    for step in range(300):
        x = make_points(128)
        z = encoder(x)
        zq, idx, commit = vq(z)
        recon = F.mse_loss(decoder(zq), x)
        loss = recon + 0.25 * commit
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema_codebook_update(vq, z.detach(), idx)
        recon_hist.append(recon.item())
        commit_hist.append(commit.item())
    return encoder, vq, enc0, code0, recon_hist, commit_hist


if __name__ == "__main__":
    encoder, vq, enc0, code0, recon_hist, commit_hist = train()
    assert not torch.equal(encoder[0].weight.detach(), enc0)
    assert not torch.equal(vq.codebook.detach(), code0)
    assert vq.codebook.grad is None
    assert sum(recon_hist[-30:]) < 0.5 * sum(recon_hist[:30])
    with torch.no_grad():
        z = encoder(make_points(256))
        err_now = torch.cdist(z, vq.codebook).min(1).values.mean()
        err_init = torch.cdist(z, code0).min(1).values.mean()
    assert err_now < err_init
    print("k06: encoder/decoder learn by backprop, codebook follows its EMA update")

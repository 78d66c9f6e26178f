"""
expect: none
dynamic: dismiss
source: https://github.com/priest-yang/Pedestrian-Trajectory-Prediction/blob/f1d430f2fe4f762c411bb78355c618f71dff2f65/src/VQVAE.py

The repository encodes pedestrian motion windows with a VQ-VAE. Its quantizer contains three
detaches in a row: the commitment term compares the encoder output with a detached code vector,
the codebook term compares the code vector with a detached encoder output, and the decoder gets
`z + (q - z).detach()`, the straight-through estimator. Each cut is deliberate: the argmin lookup
has no gradient, so the straight-through copy hands the decoder's gradient to the encoder
unchanged, while the two stop-gradients make the codebook follow the encoder and the encoder
commit to the codebook without the two terms pulling on the same side. It looks like a pile of
detached results, but every parameter group is trained. This reimplementation trains the same
structure on tiny synthetic (x, y) trajectory windows; the asserts show the encoder, codebook and
decoder all receive non-zero gradients, that the encoder still gets a gradient from the
reconstruction term alone (commitment weight 0), that the codebook gets its gradient only from the
codebook term, and that the reconstruction error falls during training.
"""
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class CodeBook(nn.Module):
    def __init__(self, n_codes, dim, beta):
        super().__init__()
        self.beta = beta
        self.codes = nn.Embedding(n_codes, dim)
        self.codes.weight.data.uniform_(-1.0 / n_codes, 1.0 / n_codes)

    def forward(self, z):
        dist = (z.pow(2).sum(1, keepdim=True) + self.codes.weight.pow(2).sum(1)
                - 2 * z @ self.codes.weight.t())
        idx = dist.argmin(dim=1)
        q = self.codes(idx)
        commit = F.mse_loss(z, q.detach())
        codebook = F.mse_loss(q, z.detach())
        vq_loss = codebook + self.beta * commit
        q_st = z + (q - z).detach()
        return q_st, vq_loss, idx


class TrajectoryVQVAE(nn.Module):
    def __init__(self, steps=8, hidden=32, dim=4, n_codes=16, beta=0.25):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(2 * steps, hidden), nn.ReLU(), nn.Linear(hidden, dim))
        self.quantizer = CodeBook(n_codes, dim, beta)
        self.decoder = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, 2 * steps))

    def forward(self, x):
        z = self.encoder(x)
        q, vq_loss, idx = self.quantizer(z)
        return self.decoder(q), vq_loss, idx


def make_trajectories(n=256, steps=8):
    start = torch.randn(n, 1, 2)
    heading = torch.randn(n, 1, 2) * 0.3
    t = torch.arange(steps).float().view(1, steps, 1)
    walk = start + heading * t + 0.02 * torch.randn(n, steps, 2)
    return walk.reshape(n, 2 * steps)


def grad_norm(module):
    return sum(p.grad.abs().sum().item() for p in module.parameters() if p.grad is not None)


def main():
    data = make_trajectories()
    model = TrajectoryVQVAE()

    # 1) one backward of the full objective reaches every part of the model
    recon, vq_loss, _ = model(data)
    (F.mse_loss(recon, data) + vq_loss).backward()
    assert grad_norm(model.encoder) > 0 and grad_norm(model.decoder) > 0
    assert grad_norm(model.quantizer) > 0
    model.zero_grad(set_to_none=True)

    # 2) the straight-through copy carries the reconstruction gradient back to the encoder
    recon, _, _ = model(data)
    F.mse_loss(recon, data).backward()
    assert grad_norm(model.encoder) > 0
    assert model.quantizer.codes.weight.grad is None  # the codebook learns only from its own term
    model.zero_grad(set_to_none=True)

    # 3) training lowers the reconstruction error
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    with torch.no_grad():
        start = F.mse_loss(model(data)[0], data).item()
    codes_before = model.quantizer.codes.weight.detach().clone()
    for _ in range(300):
        recon, vq_loss, _ = model(data)
        loss = F.mse_loss(recon, data) + vq_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        recon, _, idx = model(data)
        end = F.mse_loss(recon, data).item()
    assert end < 0.5 * start, (start, end)
    used = idx.unique()
    assert not torch.allclose(model.quantizer.codes.weight[used], codes_before[used])
    print(f"reconstruction mse {start:.3f} -> {end:.3f}, codes in use: {used.numel()}")


if __name__ == "__main__":
    main()

"""
expect: none
dynamic: dismiss
source: https://github.com/pytorch/pytorch/issues/143800

The issue (about speed) shows a spatial-transcriptomics factorization model that initializes
its factor matrices from a NumPy NMF of detached data (`self.base_spot_g.data, ... = w, h`)
and builds its objective by writing each term into a preallocated vector:
`loss = torch.zeros(6); loss[0] = self.loss_0(w1); loss[1] = ...`. The initialization is a
one-off copy into leaf parameters, and the indexed writes go into a fresh buffer that no
recorded op has saved, so autograd records them (CopySlices) and gradients reach every
factor. The asserts show the loss vector carries history, every parameter gets a gradient,
and the summed objective falls.
"""
import numpy as np
import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.manual_seed(0)
np.random.seed(0)


def nmf_ini(x, k, iters=50):
    w, h = np.random.rand(x.shape[0], k) + 0.1, np.random.rand(k, x.shape[1]) + 0.1
    for _ in range(iters):
        h *= (w.T @ x) / (w.T @ w @ h + 1e-9)
        w *= (x @ h.T) / (w @ h @ h.T + 1e-9)
    return w.astype(np.float32), h.astype(np.float32)


class SpatialFactorModel(nn.Module):
    def __init__(self, w1, w2, k=4, alpha=0.5, beta=0.1):
        super().__init__()
        n_spots, n_genes = w1.shape
        self.base_spot_g = nn.Parameter(torch.rand(n_spots, k))
        self.base_spot = nn.Parameter(torch.rand(w2.shape[0], k))
        self.feature_fusion = nn.Parameter(torch.rand(k, n_genes))
        self.alpha, self.beta = alpha, beta
        w, h = nmf_ini(w1.detach().cpu().numpy(), k)
        self.base_spot_g.data, self.feature_fusion.data = torch.from_numpy(w), torch.from_numpy(h)

    def loss_0(self, w1):
        return torch.norm(w1 - self.base_spot_g @ self.feature_fusion)

    def loss_1(self, w2):
        return self.alpha * torch.norm(w2 - self.base_spot @ self.feature_fusion)

    def loss_3(self, lap_w2, lap_w1):
        return self.beta * (torch.trace(self.base_spot.T @ lap_w2 @ self.base_spot)
                            + torch.trace(self.base_spot_g.T @ lap_w1 @ self.base_spot_g))

    def loss_4(self):
        return 0.01 * self.feature_fusion.pow(2).sum()

    def compute_loss(self, w1, w2, lap_w2, lap_w1):
        loss = torch.zeros(6, dtype=torch.float32)
        loss[0] = self.loss_0(w1=w1)
        loss[1] = self.loss_1(w2=w2)
        loss[3] = self.loss_3(lap_w2=lap_w2, lap_w1=lap_w1)
        loss[4] = self.loss_4()
        return loss


def laplacian(n):
    a = (torch.rand(n, n) < 0.2).float()
    a = ((a + a.T) > 0).float()
    return torch.diag(a.sum(1)) - a


w1, w2 = torch.rand(30, 20), torch.rand(25, 20)
lap_w1, lap_w2 = laplacian(30), laplacian(25)
model = SpatialFactorModel(w1, w2)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
hist = []
for epoch in range(100):
    loss = model.compute_loss(w1, w2, lap_w2, lap_w1)
    total = loss.sum()
    opt.zero_grad()
    total.backward()
    if epoch == 0:
        assert loss.grad_fn is not None and loss[2].item() == 0.0
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
    opt.step()
    hist.append(total.item())
assert hist[-1] < 0.9 * hist[0]
print("p18 ok: indexed writes into a fresh loss vector keep the graph", hist[0], hist[-1])

"""
expect: none
dynamic: dismiss
source: https://github.com/iffsid/mmvae/issues/4

A VAE trained with the doubly-reparameterised importance-weighted estimator (DReG), as in the mmvae code: the
objective rebuilds the posterior from detached copies of its parameters, computes the normalised importance
weights under torch.no_grad(), and rescales the gradient of the reparameterised samples with a hook. The issue
asked whether detaching the posterior parameters means the encoder is never updated. It is updated: only the
score-function path through log q(z|x) is removed on purpose, and the encoder still gets its gradient through the
reparameterised samples. The asserts check that encoder and decoder receive gradients, that the averaged DReG
encoder gradient points the same way as the plain IWAE gradient it estimates, and that training raises the bound.
"""
import torch
import torch.nn as nn
from torch.distributions import Normal

from objectives import dreg, iwae

torch.manual_seed(0)
torch.set_num_threads(1)

X_DIM, Z_DIM = 6, 2


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(X_DIM, 32), nn.Tanh(), nn.Linear(32, 2 * Z_DIM))
        self.dec = nn.Sequential(nn.Linear(Z_DIM, 32), nn.Tanh(), nn.Linear(32, X_DIM))
        self.prior = Normal(torch.zeros(Z_DIM), torch.ones(Z_DIM))
        self.qz_x_params = None

    def forward(self, x, K):
        mu, log_std = self.enc(x).chunk(2, dim=-1)
        self.qz_x_params = (mu, log_std.exp())
        qz_x = Normal(*self.qz_x_params)
        zs = qz_x.rsample((K,))
        px_z = Normal(self.dec(zs), 0.5)
        return qz_x, px_z, zs


W = torch.randn(Z_DIM, X_DIM)
data = torch.randn(256, Z_DIM) @ W + 0.3 * torch.randn(256, X_DIM)
model = VAE()
K = 8


def encoder_grad(objective, x, draws):
    total = [torch.zeros_like(p) for p in model.enc.parameters()]
    for _ in range(draws):
        model.zero_grad()
        (-objective(model, x, K)).backward()
        for acc, p in zip(total, model.enc.parameters()):
            acc += p.grad
    return torch.cat([t.flatten() for t in total]) / draws


model.zero_grad()
(-dreg(model, data[:32], K)).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.enc.parameters())
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.dec.parameters())

g_dreg = encoder_grad(dreg, data[:64], 200)
g_iwae = encoder_grad(iwae, data[:64], 200)
cosine = torch.nn.functional.cosine_similarity(g_dreg, g_iwae, dim=0).item()
assert cosine > 0.9, cosine

optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
with torch.no_grad():
    start = iwae(model, data, 64).item()
for step in range(300):
    batch = data[torch.randint(0, data.shape[0], (64,))]
    optimizer.zero_grad()
    (-dreg(model, batch, K)).backward()
    optimizer.step()
with torch.no_grad():
    end = iwae(model, data, 64).item()
assert end > start + 1.0, (start, end)
print(f"cosine(DReG, IWAE) encoder gradient {cosine:.3f}; IWAE bound {start:.2f} -> {end:.2f}")

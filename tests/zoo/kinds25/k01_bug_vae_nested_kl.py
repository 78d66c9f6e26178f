"""
expect: GL001 33
dynamic: confirm
source: kinds check 25, kind 1

A small VAE on random 16-d vectors. forward returns the reconstruction and, nested in a
second tuple, the posterior mean and log-variance, both detached so they can be logged.
The training loop unpacks `recon, (mu, logvar) = model(x)` and adds beta * KL(mu, logvar).
That KL term is built only from the detached pair, so it adds a number to the loss but never
pulls the encoder toward the prior: the weight beta changes no gradient at all.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class VAE(nn.Module):
    def __init__(self, d=16, z=4):
        super().__init__()
        self.enc = nn.Linear(d, 32)
        self.to_mu = nn.Linear(32, z)
        self.to_logvar = nn.Linear(32, z)
        self.dec = nn.Sequential(nn.Linear(z, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x):
        h = torch.relu(self.enc(x))
        mu, logvar = self.to_mu(h), self.to_logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        recon = self.dec(z)
        return recon, (mu.detach(), logvar.detach())


def kl_to_prior(mu, logvar):
    return -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())


model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.randn(64, 16)
beta = 0.5

for step in range(20):
    recon, (mu, logvar) = model(data)
    loss = F.mse_loss(recon, data) + beta * kl_to_prior(mu, logvar)
    opt.zero_grad()
    loss.backward()
    opt.step()


def grads_with(weight):
    torch.manual_seed(123)
    recon, (mu, logvar) = model(data)
    kl = kl_to_prior(mu, logvar)
    loss = F.mse_loss(recon, data) + weight * kl
    model.zero_grad()
    loss.backward()
    return [p.grad.clone() for p in model.parameters()], kl.item()


g_beta, kl_value = grads_with(beta)
g_zero, _ = grads_with(0.0)
assert kl_value > 0.0, "the KL term contributes a nonzero number to the loss"
assert all(torch.equal(a, b) for a, b in zip(g_beta, g_zero)), "beta changes no gradient"
print("ok: KL term is dead, value", round(kl_value, 4))

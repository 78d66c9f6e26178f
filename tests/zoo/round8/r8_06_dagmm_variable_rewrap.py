"""
expect: GL002 50
dynamic: confirm
source: https://github.com/mperezcarrasco/PyTorch-DAGMM/issues/4

DAGMM: an autoencoder compresses the input, an estimation net gives soft
mixture assignments, and the loss is reconstruction + sample energy + a
covariance penalty. The loss class returns `Variable(loss, requires_grad=True)`.
Wrapping a computed tensor in Variable(...) copies it into a new leaf that
requires grad, so backward() runs without error but stops at that leaf: every
model parameter gets .grad None and the optimizer never moves them ("loss is
not reducing and gradients are coming up as None").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

torch.manual_seed(0)


class TinyDAGMM(nn.Module):
    def __init__(self, d_in=6, d_lat=2, n_gmm=3):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d_in, 8), nn.Tanh(), nn.Linear(8, d_lat))
        self.dec = nn.Sequential(nn.Linear(d_lat, 8), nn.Tanh(), nn.Linear(8, d_in))
        self.est = nn.Sequential(nn.Linear(d_lat, 8), nn.Tanh(), nn.Linear(8, n_gmm))

    def forward(self, x):
        z = self.enc(x)
        return self.dec(z), z, F.softmax(self.est(z), dim=1)


class ComputeLoss:
    def __init__(self, lambda_energy=0.1, lambda_cov=0.005):
        self.lambda_energy, self.lambda_cov = lambda_energy, lambda_cov

    def compute_energy(self, z, gamma):
        phi = gamma.mean(0)
        mu = (gamma.unsqueeze(-1) * z.unsqueeze(1)).sum(0) / gamma.sum(0).unsqueeze(-1)
        var = (gamma.unsqueeze(-1) * (z.unsqueeze(1) - mu) ** 2).sum(0) / gamma.sum(0).unsqueeze(-1) + 1e-3
        log_p = -0.5 * (((z.unsqueeze(1) - mu) ** 2) / var + torch.log(var)).sum(-1)
        energy = -torch.logsumexp(torch.log(phi) + log_p, dim=1).mean()
        return energy, (1.0 / var).sum()

    def forward(self, x, x_hat, z, gamma):
        reconst = F.mse_loss(x_hat, x)
        energy, cov_diag = self.compute_energy(z, gamma)
        loss = reconst + self.lambda_energy * energy + self.lambda_cov * cov_diag
        return Variable(loss, requires_grad=True)


model = TinyDAGMM()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
compute = ComputeLoss()
data = torch.randn(16, 6)
before = [p.detach().clone() for p in model.parameters()]
for _ in range(5):
    opt.zero_grad()
    x_hat, z, gamma = model(data)
    loss = compute.forward(data, x_hat, z, gamma)
    loss.backward()
    opt.step()

assert loss.is_leaf and loss.requires_grad
assert all(p.grad is None for p in model.parameters()), "a parameter got a gradient"
assert all(torch.equal(a, b) for a, b in zip(before, model.parameters())), "model moved"
print("OK: Variable(loss) cut every parameter off the loss")

"""
expect: none
dynamic: dismiss
source: https://github.com/DeAngelisDavide/EBM-with-NCE/blob/HEAD/sampling.py

Look-alike. An energy-based model draws negatives with Langevin dynamics: each step turns
requires_grad back on for the detached chain state, takes the gradient of the energy with respect
to the samples, moves them, and detaches again. That detach / requires_grad_ pair is the telltale
shape of a lost-history "fix", but here it is on purpose: the chain must not be backpropagated
into the parameters, and the gradient wanted inside the loop is with respect to the samples.
The training loss re-evaluates the energy on data and on the finished samples, so the parameters
are trained. The asserts show the samples are detached leaves, every parameter gets a nonzero
gradient from the contrastive loss, and after training data has lower energy than noise.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class EnergyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(2, 32), nn.SiLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.f(x).squeeze(-1)  # energy


def langevin_sample(model, z, steps=20, eps=0.05):
    for _ in range(steps):
        z.requires_grad_(True)
        e = model(z).sum()
        grad = torch.autograd.grad(e, z)[0]
        z = z - 0.5 * eps * grad + (eps ** 0.5) * 0.1 * torch.randn_like(z)
        z = z.detach()
    return z


def cd_loss(model, data, neg):
    return model(data).mean() - model(neg).mean() + 0.1 * (model(data) ** 2 + model(neg) ** 2).mean()


data_dist = lambda n: torch.randn(n, 2) * 0.3 + torch.tensor([1.5, -1.0])
model = EnergyNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

neg = langevin_sample(model, torch.randn(64, 2))
assert neg.is_leaf and not neg.requires_grad
loss = cd_loss(model, data_dist(64), neg)
loss.backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())

for _ in range(150):
    opt.zero_grad()
    neg = langevin_sample(model, torch.randn(64, 2))
    cd_loss(model, data_dist(64), neg).backward()
    opt.step()

with torch.no_grad():
    e_data = model(data_dist(500)).mean().item()
    e_noise = model(torch.randn(500, 2) * 2.0).mean().item()
assert e_data < e_noise
print("ok: EBM trained through its loss; energy data", e_data, "< noise", e_noise)

"""
expect: none
dynamic: dismiss
source: https://github.com/peustr/bayesian-torch/blob/HEAD/btorch/bnn/loss.py

btorch's KL_divergence collects every module that exposes log_prior and
log_posterior, starts from the first module's difference and then
accumulates the others with `kl_divergence += ...`, finally dividing in
place with `/=` for the mean. The in-place ops look risky, but they act on
fresh results of subtraction and addition, which autograd does not save
for their backward, so no saved tensor is overwritten. The asserts show
the accumulated KL matches an out-of-place sum in value and in gradients
for every variational parameter, and a short training run lowers it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class GaussianLinear(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.mu = nn.Parameter(0.1 * torch.randn(n_out, n_in))
        self.log_sigma = nn.Parameter(torch.full((n_out, n_in), -2.0))
        self.prior = torch.distributions.Normal(0.0, 1.0)

    def forward(self, x):
        sigma = self.log_sigma.exp()
        w = self.mu + sigma * torch.randn_like(sigma)
        q = torch.distributions.Normal(self.mu, sigma)
        self.log_posterior = q.log_prob(w).sum()
        self.log_prior = self.prior.log_prob(w).sum()
        return x @ w.t()


def kl_divergence(bnn, reduction="mean"):
    mods = [m for m in bnn.modules() if hasattr(m, "log_prior") and hasattr(m, "log_posterior")]
    kl = mods[0].log_posterior - mods[0].log_prior
    for m in mods[1:]:
        kl += m.log_posterior - m.log_prior
    if reduction == "mean":
        kl /= len(mods)
    return kl


def kl_out_of_place(bnn):
    mods = [m for m in bnn.modules() if hasattr(m, "log_prior")]
    return sum(m.log_posterior - m.log_prior for m in mods) / len(mods)


net = nn.Sequential(GaussianLinear(5, 12), nn.ReLU(), GaussianLinear(12, 12), nn.ReLU(), GaussianLinear(12, 2))
x = torch.randn(20, 5)
y = torch.randn(20, 2)

torch.manual_seed(5)
net(x)
kl_a = kl_divergence(net)
grads_a = torch.autograd.grad(kl_a, list(net.parameters()))
torch.manual_seed(5)
net(x)
kl_b = kl_out_of_place(net)
grads_b = torch.autograd.grad(kl_b, list(net.parameters()))
assert torch.allclose(kl_a, kl_b)
assert all(torch.allclose(a, b) for a, b in zip(grads_a, grads_b))

opt = torch.optim.Adam(net.parameters(), lr=1e-2)
kls = []
for step in range(60):
    torch.manual_seed(step)
    opt.zero_grad()
    loss = F.mse_loss(net(x), y) + 1e-3 * kl_divergence(net)
    loss.backward()
    opt.step()
    kls.append(kl_divergence(net).item())
print("kl", kls[0], "->", kls[-1])
assert kls[-1] < kls[0]
print("ok: in-place accumulation of the KL keeps every gradient")

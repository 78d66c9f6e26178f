"""
expect: none
dynamic: dismiss
source: kinds check 27, kind 5

The same linear normalising flow, but each step computes log|det W| with
torch.linalg.slogdet on its weight, so the summed log-determinant stays in
the graph and the NLL's volume term trains the weights.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class InvertibleLinear(nn.Module):
    def __init__(self, dim):
        super().__init__()
        q, _ = torch.linalg.qr(torch.randn(dim, dim))
        self.weight = nn.Parameter(q + 0.1 * torch.randn(dim, dim))
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        out = x @ self.weight.t() + self.bias
        logdet = torch.linalg.slogdet(self.weight).logabsdet
        return out, logdet.expand(x.size(0))


class LinearFlow(nn.Module):
    def __init__(self, dim=6, n_steps=3):
        super().__init__()
        self.steps = nn.ModuleList([InvertibleLinear(dim) for _ in range(n_steps)])

    def forward(self, x):
        total_logdet = torch.zeros(x.size(0))
        for step in self.steps:
            x, logdet = step(x)
            total_logdet = total_logdet + logdet
        return x, total_logdet


flow = LinearFlow()
data = torch.randn(128, 6) * torch.linspace(0.5, 3.0, 6)
z, logdet = flow(data)
prior_term = 0.5 * z.pow(2).sum(dim=1).mean()
nll = prior_term - logdet.mean()

weights = [step.weight for step in flow.steps]
grads_nll = torch.autograd.grad(nll, weights, retain_graph=True)
grads_prior = torch.autograd.grad(prior_term, weights)

assert logdet.requires_grad
diff = sum((a - b).abs().sum().item() for a, b in zip(grads_nll, grads_prior))
assert diff > 1e-3, diff
print("logdet =", logdet[0].item(), "changes weight grads by", diff)

"""
expect: GL002 orbit.py:33
dynamic: confirm
source: https://github.com/esa/dSGP4/issues/14

The report: a user feeds an MLP's output into a dataclass of TLE fields and builds the TLE from
it; after adding `.item()` to make batching run, "it doesn't propagate the gradient from the MLP
output into the SGP4 model ... the .item strips the value". This folder rebuilds it: orbit.py
holds the OrbitModel dataclass, whose from_prediction() stores `correction[i].item()` floats and
whose element_tensor() rebuilds them as a fresh leaf with requires_grad=True, and a
differentiable two-body propagator. The asserts show the propagation loss backpropagates into
that leaf only: every MLP parameter keeps grad None and never changes.
"""
import torch
import torch.nn as nn

from orbit import BASE_ELEMENTS, OrbitModel, propagate


class Corrector(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 6))

    def forward(self, feats):
        return 1e-3 * self.net(feats)


torch.manual_seed(0)
corrector = Corrector().double()
opt = torch.optim.Adam(corrector.parameters(), lr=1e-2)
feats = torch.randn(4, dtype=torch.float64)
times = torch.linspace(0, 90, 10, dtype=torch.float64)
truth = propagate(torch.tensor(BASE_ELEMENTS, dtype=torch.float64) + 2e-3, times)
w0 = [p.detach().clone() for p in corrector.parameters()]

for _ in range(3):
    correction = corrector(feats)
    orbit = OrbitModel.from_prediction(25544, 300.5, BASE_ELEMENTS, correction)
    elements = orbit.element_tensor()
    loss = ((propagate(elements, times) - truth) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    assert elements.grad is not None and elements.grad.abs().sum() > 0
    assert all(p.grad is None for p in corrector.parameters()), "no gradient reaches the MLP"
    opt.step()
assert all(torch.equal(a, b) for a, b in zip(w0, corrector.parameters()))

# the same loss with the correction kept as a tensor trains the MLP
elements = torch.tensor(BASE_ELEMENTS, dtype=torch.float64) + corrector(feats)
loss = ((propagate(elements, times) - truth) ** 2).mean()
opt.zero_grad()
loss.backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in corrector.parameters())
print("ok: .item() into the TLE dataclass cuts the MLP out of the orbit loss")

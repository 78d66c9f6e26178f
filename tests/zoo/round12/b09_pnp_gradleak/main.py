"""
expect: GL001 denoiser.py:18
dynamic: confirm
source: https://github.com/deepinv/deepinv/issues/166

The report: calling GSDRUNet disables gradient computation until
torch.set_grad_enabled(True) is called again, because its potential_grad method
switches grad mode off and never restores it. This program puts a gradient-step
denoiser with the same habit in denoiser.py and trains an unrolled restorer whose
refinement layer runs after the denoiser call. Everything computed after the call
is recorded with grad mode off, so the refinement term is a constant: the asserts
show the refiner's weight gets no gradient and never changes, while the layer
computed before the call still learns.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from denoiser import GradientStepDenoiser


class UnrolledRestorer(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.lift = nn.Linear(dim, dim)
        self.prior = GradientStepDenoiser(dim)
        self.refine = nn.Linear(dim, dim)

    def forward(self, y):
        z = self.lift(y)
        d = self.prior(z, sigma=0.1)
        return z, self.refine(d)


torch.manual_seed(0)
net = UnrolledRestorer()
opt = torch.optim.Adam([p for p in net.parameters() if p.requires_grad], lr=1e-2)
y, x_true = torch.randn(32, 16), torch.randn(32, 16)
lift0 = net.lift.weight.detach().clone()
refine0 = net.refine.weight.detach().clone()
for _ in range(5):
    torch.set_grad_enabled(True)
    opt.zero_grad()
    z, out = net(y)
    torch.set_grad_enabled(True)
    assert out.grad_fn is None
    loss = F.mse_loss(z, y) + F.mse_loss(out, x_true)
    loss.backward()
    opt.step()
torch.set_grad_enabled(True)
assert net.refine.weight.grad is None
assert torch.equal(refine0, net.refine.weight)
assert not torch.equal(lift0, net.lift.weight)
print("refine grad:", net.refine.weight.grad, "lift moved:", (net.lift.weight - lift0).abs().max().item())

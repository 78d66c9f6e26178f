"""
expect: none
dynamic: dismiss
source: none, invented

A memory-lean regression MLP (fitting a noisy 3-D function) uses a custom in-place clipping
activation, `FusedClamp`, written as a `torch.autograd.Function`: its forward computes the
pass-through mask, saves that mask, clamps the input in place and reports it with `ctx.mark_dirty`.
The activation is always applied to the raw output of an `nn.Linear` (addmm keeps its inputs, not its
output) and nothing else holds on to that tensor, so the in-place edit is safe and the bookkeeping is
exactly what autograd asks for.  The asserts check that gradients through the model equal those of
the same model with `F.hardtanh` to 1e-6, and that training drives the test MSE well down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class FusedClamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, bound):
        inside = (x > -bound) & (x < bound)
        ctx.save_for_backward(inside)
        x.clamp_(-bound, bound)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad_out):
        (inside,) = ctx.saved_tensors
        return grad_out * inside, None


class ClippedMLP(nn.Module):
    def __init__(self, act="custom"):
        super().__init__()
        self.fc1 = nn.Linear(3, 64)
        self.fc2 = nn.Linear(64, 64)
        self.fc3 = nn.Linear(64, 1)
        self.act = act

    def clip(self, h):
        if self.act == "custom":
            return FusedClamp.apply(h, 1.0)
        return F.hardtanh(h)

    def forward(self, x):
        h = self.clip(self.fc1(x))
        h = self.clip(self.fc2(h))
        return self.fc3(h)


def target_fn(x):
    return torch.sin(2 * x[:, :1]) * x[:, 1:2] + 0.5 * x[:, 2:].pow(2)


def sample(n):
    x = 2 * torch.rand(n, 3) - 1
    return x, target_fn(x) + 0.02 * torch.randn(n, 1)


model = ClippedMLP("custom")
reference = ClippedMLP("hardtanh")
reference.load_state_dict(model.state_dict())
x, y = sample(256)
F.mse_loss(model(x), y).backward()
F.mse_loss(reference(x), y).backward()
for (name, p), q in zip(model.named_parameters(), reference.parameters()):
    assert torch.allclose(p.grad, q.grad, atol=1e-6), name

opt = torch.optim.Adam(model.parameters(), lr=3e-3)
x_test, y_test = sample(1000)
with torch.no_grad():
    mse_before = F.mse_loss(model(x_test), y_test).item()
for _ in range(400):
    x, y = sample(128)
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
with torch.no_grad():
    mse_after = F.mse_loss(model(x_test), y_test).item()
assert mse_after < 0.1 * mse_before, (mse_before, mse_after)
print(f"k18: in-place clamp with mark_dirty matches hardtanh; test MSE {mse_before:.3f} -> {mse_after:.4f}")

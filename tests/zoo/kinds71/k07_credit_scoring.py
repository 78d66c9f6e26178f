"""
expect: none
dynamic: dismiss
source: none, invented

A credit-scoring model on tabular features is trained with a squared-hinge loss computed in NumPy inside a
torch.autograd.Function. The static forward converts its input to NumPy, computes the loss value, and returns
torch.tensor(value, requires_grad=True); the static backward returns a hand-written gradient. Inside a custom
Function, forward runs without graph recording and autograd wires the output to backward() itself, so the
rebuilt tensor is fine: the gradient reaches the network and it trains. Not a bug.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


class SquaredHingeLoss(torch.autograd.Function):
    @staticmethod
    def forward(ctx, scores, labels):
        s = scores.detach().cpu().numpy()
        y = labels.detach().cpu().numpy()
        margin = np.maximum(0.0, 1.0 - y * s)
        ctx.save_for_backward(scores, labels)
        return torch.tensor(float((margin ** 2).mean()), requires_grad=True)

    @staticmethod
    def backward(ctx, grad_out):
        scores, labels = ctx.saved_tensors
        s = scores.detach().cpu().numpy()
        y = labels.detach().cpu().numpy()
        margin = np.maximum(0.0, 1.0 - y * s)
        g = -2.0 * y * margin / s.size
        return grad_out * torch.from_numpy(g).to(scores.dtype), None


model = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
features = torch.randn(128, 12)
labels = torch.where(features[:, 0] + 0.5 * features[:, 3] > 0, 1.0, -1.0)
before = [p.detach().clone() for p in model.parameters()]

losses = []
for step in range(50):
    opt.zero_grad()
    loss = SquaredHingeLoss.apply(model(features).squeeze(-1), labels)
    loss.backward()
    opt.step()
    losses.append(loss.item())

for p0, p in zip(before, model.parameters()):
    assert p.grad is not None and p.grad.abs().sum() > 0
    assert not torch.equal(p0, p), "every parameter moved"
assert losses[-1] < 0.5 * losses[0], losses
# hand-written gradient matches autograd on the torch version
x = model(features).squeeze(-1).detach().requires_grad_()
ref = (torch.clamp(1 - labels * x, min=0) ** 2).mean()
g_ref = torch.autograd.grad(ref, x)[0]
g_fn = torch.autograd.grad(SquaredHingeLoss.apply(x, labels), x)[0]
assert torch.allclose(g_ref, g_fn, atol=1e-6)
print("k07 ok: NumPy loss inside a custom Function trains")

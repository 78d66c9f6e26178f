"""
expect: none
dynamic: dismiss
source: https://github.com/pai4451/ML2021/issues/2

The report: the HW7 (BERT QA) example kept eating CPU RAM during training until 64 GB were gone;
`train_loss += output.loss` stores the whole computation graph, and changing it to
`train_loss += output.loss.detach()` (or `.item()`) fixed it. This program rebuilds the fixed loop:
the loss is detached only for the running total that is printed, while backward runs on the attached
loss. The asserts show the model's parameters all get gradients and the loss falls, that the logged
total carries no graph, and that it equals the sum of the per-step losses.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpanHead(nn.Module):
    """Predicts start/end logits over a short context."""

    def __init__(self, dim=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(dim, dim), nn.GELU())
        self.qa = nn.Linear(dim, 2)

    def forward(self, h, start, end):
        logits = self.qa(self.enc(h))
        s, e = logits.unbind(-1)
        return (F.cross_entropy(s, start) + F.cross_entropy(e, end)) / 2


torch.manual_seed(0)
model = SpanHead()
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
h = torch.randn(8, 12, 16)
start, end = torch.randint(0, 12, (8,)), torch.randint(0, 12, (8,))

train_loss = 0.0
per_step = []
for step in range(30):
    loss = model(h, start, end)
    opt.zero_grad()
    loss.backward()
    if step == 0:
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
    opt.step()
    train_loss += loss.detach()
    per_step.append(loss.item())

assert isinstance(train_loss, torch.Tensor) and train_loss.grad_fn is None and not train_loss.requires_grad
assert abs(train_loss.item() - sum(per_step)) < 1e-3
assert per_step[-1] < 0.5 * per_step[0]
print(f"ok: detached running total {train_loss.item():.3f}; loss {per_step[0]:.3f} -> {per_step[-1]:.3f}")

"""
expect: GL004 main.py:31
dynamic: confirm
source: kinds check 49, kind 3

A self-supervised trainer accumulates k micro-batch losses into
`self.pending` and calls `self.pending.backward(retain_graph=True)` on the
running sum every call, stepping and resetting only every k calls. Earlier
micro-batches are backpropagated again on every later call, so after k calls
the gradient is over-counted (the first micro-batch k times) rather than the
mean of the k micro-batch gradients.
"""
import torch
import torch.nn as nn

from contrastive import InfoNCEObjective


class SimCLRTrainer:
    def __init__(self, model, objective, k=4):
        self.model = model
        self.objective = objective
        self.k = k
        self.opt = torch.optim.SGD(model.parameters(), lr=0.05)
        self.pending = 0.0
        self.calls = 0

    def micro_step(self, views):
        loss = self.objective.loss(self.model, views)
        self.pending = self.pending + loss / self.k
        self.pending.backward(retain_graph=True)
        self.calls += 1
        if self.calls % self.k == 0:
            self.opt.step()
            self.opt.zero_grad()
            self.pending = 0.0


torch.manual_seed(4)
enc = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 6))
trainer = SimCLRTrainer(enc, InfoNCEObjective(), k=4)
batches = [(torch.randn(10, 8), torch.randn(10, 8)) for _ in range(4)]

for v in batches[:3]:
    trainer.micro_step(v)
got = [p.grad.clone() for p in enc.parameters()]

ref_loss = sum(trainer.objective.loss(enc, v) for v in batches[:3]) / 4
ref = torch.autograd.grad(ref_loss, list(enc.parameters()))
assert not all(torch.allclose(g, r, atol=1e-6) for g, r in zip(got, ref))
over = torch.autograd.grad(sum((3 - i) * trainer.objective.loss(enc, v) for i, v in enumerate(batches[:3])) / 4,
                           list(enc.parameters()))
assert all(torch.allclose(g, o, atol=1e-5) for g, o in zip(got, over))
print("ok: accumulated gradient is over-counted vs the intended mean")

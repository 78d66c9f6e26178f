"""
expect: none
dynamic: dismiss
source: kinds check 49, kind 3

A retrieval trainer does gradient accumulation over k micro-batches: each
call backpropagates its own `loss / k` (no retain_graph) and keeps the running
total only as a Python float via `.item()` for logging. After k calls the
gradient equals the gradient of the mean loss.
"""
import torch
import torch.nn as nn

from ranking import PairRankingObjective


class RetrievalTrainer:
    def __init__(self, model, objective, accum=3):
        self.model = model
        self.objective = objective
        self.accum = accum
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.running = 0.0
        self.n = 0

    def train_micro(self, pair):
        loss = self.objective.loss(self.model, pair) / self.accum
        loss.backward()
        self.running += loss.item()
        self.n += 1
        if self.n % self.accum == 0:
            self.opt.step()
            self.opt.zero_grad()
            logged, self.running = self.running, 0.0
            return logged
        return None


torch.manual_seed(5)
tower = nn.Sequential(nn.Linear(12, 20), nn.Tanh(), nn.Linear(20, 8))
tr = RetrievalTrainer(tower, PairRankingObjective(), accum=3)
pairs = [(torch.randn(7, 12), torch.randn(7, 12)) for _ in range(3)]
for p in pairs[:2]:
    tr.train_micro(p)
got = [p.grad.clone() for p in tower.parameters()]
ref = torch.autograd.grad(sum(tr.objective.loss(tower, p) for p in pairs[:2]) / 3, list(tower.parameters()))
assert all(torch.allclose(g, r, atol=1e-6) for g, r in zip(got, ref))
before = [p.detach().clone() for p in tower.parameters()]
logged = tr.train_micro(pairs[2])
assert isinstance(logged, float)
assert any(not torch.equal(b, p) for b, p in zip(before, tower.parameters()))
print("ok: accumulated gradient equals the mean-loss gradient")

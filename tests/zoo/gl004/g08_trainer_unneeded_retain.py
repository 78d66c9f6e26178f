"""source: https://github.com/benedekrozemberczki/SimGNN/issues/41

A SimGNN-style trainer whose process_batch() method sums the losses of the graph
pairs in a batch and calls losses.backward(retain_graph=True).  The retain is not
needed: every batch runs a fresh forward over fresh pairs and the trainer keeps
only a float, so one batch's graph is held at most until the next call.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            todo.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class PairScorer(nn.Module):
    def __init__(self, feat=8, dim=16):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(feat, dim), nn.ReLU())
        self.score = nn.Linear(2 * dim, 1)

    def forward(self, g1, g2):
        e1, e2 = self.embed(g1).mean(0), self.embed(g2).mean(0)
        return torch.sigmoid(self.score(torch.cat([e1, e2])))


class Trainer:
    def __init__(self):
        self.model = PairScorer()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.sizes = []

    def process_batch(self, batch):
        self.optimizer.zero_grad()
        losses = 0
        for g1, g2, target in batch:
            losses = losses + F.mse_loss(self.model(g1, g2), target)
        losses.backward(retain_graph=True)
        self.optimizer.step()
        self.sizes.append(graph_size(losses))
        return losses.item()


torch.manual_seed(0)
trainer = Trainer()
for epoch in range(4):
    batch = [(torch.randn(5, 8), torch.randn(6, 8), torch.rand(1)) for _ in range(3)]
    trainer.process_batch(batch)
assert len(set(trainer.sizes)) == 1, trainer.sizes
print("graph constant:", trainer.sizes)

"""
expect: GL004 43
dynamic: confirm
source: kinds check 51, kind 3

An anomaly scorer over sensor streams keeps a running memory vector on the module.
observe() rebinds self.memory from its previous value without detaching, and the
training loop calls step_loss every batch with retain_graph=True, so each backward
walks back through all earlier batches and hits parameters the optimizer changed.
"""
import torch
import torch.nn as nn

torch.manual_seed(4)


class StreamScorer(nn.Module):
    def __init__(self, n_in=6, n_mem=12):
        super().__init__()
        self.inp = nn.Linear(n_in, n_mem)
        self.rec = nn.Linear(n_mem, n_mem)
        self.head = nn.Linear(n_mem, 1)
        self.memory = torch.zeros(1, n_mem)

    def observe(self, readings):
        self.memory = torch.tanh(self.inp(readings) + self.rec(self.memory))
        return self.head(self.memory)


def step_loss(model, batch):
    readings, labels = batch
    score = model.observe(readings)
    return nn.functional.binary_cross_entropy_with_logits(score, labels)


model = StreamScorer()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
caught = None
try:
    for t in range(5):
        batch = (torch.randn(1, 6), torch.rand(1, 1).round())
        opt.zero_grad()
        step_loss(model, batch).backward(retain_graph=True)
        opt.step()
except RuntimeError as err:
    caught = err
assert caught is not None and "modified by an inplace operation" in str(caught), caught
assert t == 2, t  # first stale rec(memory) hop is reached at the third batch
print("ok: a later backward failed through stale memory graph:", str(caught)[:70])

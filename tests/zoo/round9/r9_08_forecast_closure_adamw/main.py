"""
expect: GL003 56
dynamic: error
source: https://github.com/Lightning-AI/pytorch-lightning/issues/18254

A Lightning-style loop trains a GRU forecaster: the trainer packs zero_grad, the
training_step and backward into a closure and hands it to `optimizer.step(closure)`.
The project's AdamW (optim.py, modelled on the transformers one) decorates `step` with
`@torch.no_grad()` and calls the closure inside it, so the whole training_step and its
`loss.backward()` run with grad mode off: the loss has no history and PyTorch raises.
The program asserts that error and that torch.optim.AdamW, which re-enables grad
around the closure, trains the same model through the same closure.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from optim import AdamW

torch.manual_seed(0)

PAST, HORIZON = 12, 3


class Forecaster(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.rnn = nn.GRU(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, HORIZON)

    def training_step(self, batch):
        past, future = batch
        _, h = self.rnn(past.unsqueeze(-1))
        return F.mse_loss(self.head(h[-1]), future)


def make_series_batch(n=16):
    start = torch.rand(n, 1) * 6.28
    t = start + 0.3 * torch.arange(PAST + HORIZON).float()
    series = torch.sin(t) + 0.05 * torch.randn_like(t)
    return series[:, :PAST], series[:, PAST:]


class Trainer:
    def __init__(self, max_steps=5):
        self.max_steps = max_steps

    def fit(self, model, optimizer):
        losses = []
        for _ in range(self.max_steps):
            batch = make_series_batch()

            def closure():
                optimizer.zero_grad()
                loss = model.training_step(batch)
                loss.backward()
                return loss

            losses.append(optimizer.step(closure).item())
        return losses


model = Forecaster()
raised = None
try:
    Trainer().fit(model, AdamW(model.parameters(), lr=1e-2))
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "does not require grad" in raised, raised

torch.manual_seed(0)
model = Forecaster()
before = model.head.weight.detach().clone()
Trainer().fit(model, torch.optim.AdamW(model.parameters(), lr=1e-2))
assert not torch.equal(before, model.head.weight)

print("OK")

"""
expect: none
dynamic: dismiss
source: https://github.com/NCAR/miles-credit/blob/061cfc94331b9fb65fd1a443430f1179a4917534/credit/trainers/trainerERA5.py

Weather forecasting with an autoregressive emulator (NCAR CREDIT trainer). During a
multi-step rollout the trainer back-propagates every forecast step with
`loss.backward(retain_graph=retain_graph)` and feeds the prediction back as the next input;
when retain_graph is off it cuts the rollout with y_pred.detach(), when it is on it keeps
the graph so that the loss of step k also trains the earlier steps through the
autoregressive chain. This looks like the "retain_graph with state carried into the next
iteration" pattern, but the graph is only reused inside one rollout: the optimizer steps
once per batch and the input is re-initialised from the batch at forecast_step 1, so no
graph survives into the next batch. The trainer below keeps that loop on a toy 1-D
advection-diffusion "atmosphere". The asserts show that the accumulated gradient equals
full back-propagation through time of the summed rollout loss, that the graph reachable
from the last prediction has the same size in every batch (no growth), that the detached
mode gives the one-step gradients instead, and that training lowers the rollout error.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

GRID, FORECAST_LEN = 32, 4


def true_step(x):
    # advection by one cell plus weak diffusion on a periodic grid
    shifted = torch.roll(x, 1, dims=-1)
    return shifted + 0.1 * (torch.roll(shifted, 1, -1) - 2 * shifted + torch.roll(shifted, -1, -1))


def make_batch(n=8):
    x0 = torch.randn(n, 1, GRID)
    steps = []
    x = x0
    for k in range(1, FORECAST_LEN + 1):
        y = true_step(x)
        steps.append({"x": x0, "y": y, "forecast_step": k, "stop_forecast": k == FORECAST_LEN})
        x = y
    return steps


class Emulator(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 1, kernel_size=5, padding=2, padding_mode="circular", bias=False)

    def forward(self, x):
        return self.conv(x)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return len(seen)


class Trainer:
    def __init__(self, model, retain_graph, lr=0.05):
        self.model = model
        self.retain_graph = retain_graph
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.criterion = nn.MSELoss()
        self.last_graph_sizes = []

    def rollout_grads(self, batch):
        """One rollout; returns the logged loss. Gradients accumulate in .grad."""
        logs = []
        for step_batch in batch:
            if step_batch["forecast_step"] == 1:
                x = step_batch["x"]
            y_pred = self.model(x)
            loss = self.criterion(step_batch["y"], y_pred)
            logs.append(loss.item())                                  # logging only
            loss.backward(retain_graph=self.retain_graph)
            if step_batch["stop_forecast"]:
                self.last_graph_sizes.append(graph_size(y_pred))
                break
            # discard the graph unless we back-propagate through the rollout
            if not self.retain_graph:
                y_pred = y_pred.detach()
            x = y_pred
        return sum(logs) / len(logs)

    def train_one_epoch(self, batches):
        losses = []
        for batch in batches:
            losses.append(self.rollout_grads(batch))
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.optimizer.step()
            self.optimizer.zero_grad()
        return sum(losses) / len(losses)


def reference_grad(model, batch, bptt):
    model.zero_grad()
    x = batch[0]["x"]
    total = 0
    for step_batch in batch:
        y_pred = model(x)
        total = total + nn.functional.mse_loss(y_pred, step_batch["y"])
        x = y_pred if bptt else y_pred.detach()
    total.backward()
    g = model.conv.weight.grad.clone()
    model.zero_grad()
    return g


batch = make_batch()
model = Emulator()

# 1) retain_graph=True: gradient of the rollout == full BPTT of the summed loss
trainer = Trainer(model, retain_graph=True)
model.zero_grad()
trainer.rollout_grads(batch)
g_retain = model.conv.weight.grad.clone()
model.zero_grad()
assert torch.allclose(g_retain, reference_grad(model, batch, bptt=True), atol=1e-6)
assert not torch.allclose(g_retain, reference_grad(model, batch, bptt=False), atol=1e-4)

# 2) detached mode: one-step (truncated) gradients
trainer_det = Trainer(model, retain_graph=False)
trainer_det.rollout_grads(batch)
g_det = model.conv.weight.grad.clone()
model.zero_grad()
assert torch.allclose(g_det, reference_grad(model, batch, bptt=False), atol=1e-6)

# 3) training with retain_graph: no graph growth between batches, error goes down
torch.manual_seed(3)
model = Emulator()
trainer = Trainer(model, retain_graph=True)
batches = [make_batch() for _ in range(6)]
first = trainer.train_one_epoch(batches)
for epoch in range(30):
    last = trainer.train_one_epoch(batches)
sizes = set(trainer.last_graph_sizes)
print(f"rollout loss first epoch {first:.4f} last epoch {last:.4f}; graph sizes {sizes}")
assert len(sizes) == 1
assert last < 0.1 * first
print("OK: retain_graph is reused only inside one rollout; the emulator trains")

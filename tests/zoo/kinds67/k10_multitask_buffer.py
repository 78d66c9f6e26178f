"""
expect: none
dynamic: dismiss
source: none, invented

Multi-task regression with learned uncertainty weighting (Kendall et al. style). Each
task head's loss is written into a preallocated vector `task_losses[k] = term`, the
weighted sum `(exp(-log_var) * task_losses + log_var).sum()` is the training loss, and the
per-task numbers are read out with `.item()` only for the log dictionary. Assigning a
tensor into a slot of a buffer is an in-place copy that autograd records (CopySlices), so
the buffer keeps the history of every term, and the `.item()` calls never feed back into
the loss. The asserts show every task head, the shared trunk and the log-variances get
non-zero gradients and change after training, and that the buffer has a grad_fn.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

TASKS = ["price", "demand", "return_rate"]


class SharedTrunk(nn.Module):
    def __init__(self, d_in=10, hidden=24):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, hidden), nn.Tanh())
        self.heads = nn.ModuleDict({t: nn.Linear(hidden, 1) for t in TASKS})
        self.log_var = nn.Parameter(torch.zeros(len(TASKS)))

    def forward(self, x):
        h = self.trunk(x)
        return {t: head(h).squeeze(-1) for t, head in self.heads.items()}


model = SharedTrunk()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
before = {n: p.detach().clone() for n, p in model.named_parameters()}

log = []
for step in range(10):
    x = torch.randn(32, 10)
    targets = {t: torch.randn(32) for t in TASKS}
    preds = model(x)
    task_losses = torch.zeros(len(TASKS))
    for k, t in enumerate(TASKS):
        term = F.mse_loss(preds[t], targets[t])
        task_losses[k] = term
    log.append({t: task_losses[k].item() for k, t in enumerate(TASKS)})
    assert task_losses.grad_fn is not None
    loss = (torch.exp(-model.log_var) * task_losses + model.log_var).sum()
    opt.zero_grad()
    loss.backward()
    for t in TASKS:
        assert model.heads[t].weight.grad.abs().sum() > 0
    assert model.trunk[0].weight.grad.abs().sum() > 0
    assert model.log_var.grad.abs().sum() > 0
    opt.step()

for n, p in model.named_parameters():
    assert not torch.equal(p, before[n]), n
assert len(log) == 10
print("ok")

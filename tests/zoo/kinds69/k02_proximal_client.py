"""
expect: GL001 37
dynamic: confirm
source: none, invented

A federated-style client fine-tunes a regression model while a proximal term
keeps it near the global weights it started from. The proximal term is computed
by a helper that loops over model.state_dict() items, but state_dict() returns
detached tensors, so the term is a constant with no graph: it adds to the loss
value yet contributes nothing to the gradients, and the model drifts as if the
regulariser were absent.
"""
import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))
global_weights = {k: v.clone() for k, v in model.state_dict().items()}
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
mu = 10.0

inputs = torch.randn(128, 8)
targets = inputs.sum(dim=1, keepdim=True) * 0.5


def proximal_penalty(weights, reference):
    total = torch.zeros(())
    for name, value in weights.items():
        total = total + ((value - reference[name]) ** 2).sum()
    return total


for epoch in range(20):
    optimizer.zero_grad()
    task_loss = nn.functional.mse_loss(model(inputs), targets)
    penalty = proximal_penalty(model.state_dict(), global_weights)
    loss = task_loss + 0.5 * mu * penalty
    loss.backward()
    optimizer.step()

# the last penalty was large, yet it contributes no gradient
assert penalty.item() > 0 and not penalty.requires_grad
model.zero_grad()
nn.functional.mse_loss(model(inputs), targets).backward()
task_only = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
(nn.functional.mse_loss(model(inputs), targets) + 0.5 * mu * penalty).backward()
assert all(torch.equal(a, p.grad) for a, p in zip(task_only, model.parameters()))
print("proximal term has no gradient: bug reproduced")

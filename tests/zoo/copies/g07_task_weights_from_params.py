"""expect: GL002 30
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/61410

A two-task regression model learns how to weight its task losses (uncertainty weighting): it
owns one log-variance nn.Parameter per task and the combined loss is
sum(exp(-s_i) * L_i + s_i). The forward pass gathers the two parameters with
torch.Tensor([s_a, s_b]) to vectorise the weighting. Building a tensor from a list of
parameters copies their values and silently drops requires_grad, so the task heads keep
training through L_i while the log-variances never get a gradient and stay at their initial
values forever.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoTaskRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(5, 16), nn.ReLU())
        self.head_a = nn.Linear(16, 1)
        self.head_b = nn.Linear(16, 1)
        self.log_var_a = nn.Parameter(torch.tensor(0.0))
        self.log_var_b = nn.Parameter(torch.tensor(0.0))

    def weighted_loss(self, x, ya, yb):
        h = self.shared(x)
        task_losses = torch.stack([F.mse_loss(self.head_a(h), ya), F.mse_loss(self.head_b(h), yb)])
        log_vars = torch.Tensor([self.log_var_a, self.log_var_b])
        return (torch.exp(-log_vars) * task_losses + log_vars).sum()


torch.manual_seed(0)
model = TwoTaskRegressor()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
x = torch.randn(64, 5)
ya, yb = x.sum(1, keepdim=True), 10 * x[:, :1]
head_before = model.head_b.weight.detach().clone()

for step in range(20):
    opt.zero_grad()
    loss = model.weighted_loss(x, ya, yb)
    loss.backward()
    opt.step()

print("log variances:", model.log_var_a.item(), model.log_var_b.item())
assert model.log_var_a.grad is None and model.log_var_b.grad is None
assert model.log_var_a.item() == 0.0 and model.log_var_b.item() == 0.0
assert not torch.equal(model.head_b.weight.detach(), head_before)
print("task heads train, the loss weights never do")

"""expect: none
dynamic: dismiss
source: https://rubsky.top/post/tensor%E5%92%8Cstack%E5%9C%A8%E6%B1%82%E5%AF%BC%E6%97%B6%E7%9A%84%E5%8C%BA%E5%88%AB/

A two-task regressor learns per-task uncertainty weights as scalar nn.Parameter
attributes and combines them inside the module with torch.stack. Unlike building a new
tensor from the parameters, torch.stack is recorded by autograd, so the loss stays
connected to both scalars and they receive gradients alongside the shared trunk.
"""
import torch
from torch import nn
from torch.nn import functional as F


class TwoTaskRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(5, 16), nn.ReLU())
        self.head_a = nn.Linear(16, 1)
        self.head_b = nn.Linear(16, 1)
        self.s_a = nn.Parameter(torch.tensor(0.0))
        self.s_b = nn.Parameter(torch.tensor(0.0))

    def loss(self, x, ya, yb):
        z = self.trunk(x)
        la = F.mse_loss(self.head_a(z).squeeze(-1), ya)
        lb = F.mse_loss(self.head_b(z).squeeze(-1), yb)
        log_vars = torch.stack([self.s_a, self.s_b])
        task = torch.stack([la, lb])
        return (torch.exp(-log_vars) * task + log_vars).sum()


torch.manual_seed(2)
m = TwoTaskRegressor()
opt = torch.optim.SGD(m.parameters(), lr=0.05)
x, ya, yb = torch.randn(20, 5), torch.randn(20), 3 * torch.randn(20)
opt.zero_grad()
total = m.loss(x, ya, yb)
total.backward()
opt.step()

assert m.s_a.grad is not None and m.s_b.grad is not None
assert m.s_a.item() != 0.0 and m.s_b.item() != 0.0
print("log-variances moved:", m.s_a.item(), m.s_b.item())

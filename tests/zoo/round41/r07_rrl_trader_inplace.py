"""
expect: none
dynamic: dismiss
source: https://github.com/ceshine/RRL_PyTorch/blob/9fe25c631904cfa272bc16094f43f6e4dab86bba/RRL/__init__.py

Recurrent reinforcement learning for trading (Moody/Molina): a single tanh neuron maps the
last m normalised returns plus its own previous position F[t-1] to a position F[t]; the
Sharpe ratio of the resulting strategy is maximised by gradient ascent through the whole
recursion. The positions are written one by one into a preallocated tensor with
F[i] = model(features), and each step reads the previous slot back with F[i-1:i]. That is an
in-place write into a tensor that is read again, which looks like the "modified by an
inplace operation" pattern, but no recorded op saves F itself: the slice is only
concatenated (cat keeps no inputs for backward), the Linear layer saves the concatenated
copy and tanh saves its own output. The asserts check that backward succeeds, that the
gradient equals the one from an out-of-place version built with a list and torch.stack,
and that gradient ascent raises the Sharpe ratio.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class RRLModel(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m
        self.neuron = nn.Linear(m + 1, 1)
        nn.init.uniform_(self.neuron.weight, -0.2, 0.2)
        nn.init.constant_(self.neuron.bias, 0.0)

    def forward(self, features):
        return torch.tanh(self.neuron(features))


def sharpe_ratio(returns, eps=1e-6):
    mean = returns.mean(-1)
    return mean / (torch.sqrt((returns ** 2).mean(-1) - mean ** 2) + eps)


def reward(asset_returns, Ft, m, delta=0.001):
    n = Ft.shape[-1] - 1
    rets = Ft[:n] * asset_returns[m:m + n] - delta * torch.abs(Ft[1:] - Ft[:n])
    return sharpe_ratio(rets)


def update_Ft(norm_returns, model):
    m = model.m
    t = norm_returns.shape[-1] - m
    Ft = torch.zeros(t + 1)
    for i in range(1, t):
        features = torch.cat([norm_returns[i - 1:i + m - 1], Ft[i - 1:i]])
        Ft[i] = model(features)
    return Ft[1:]


def update_Ft_stack(norm_returns, model):
    m = model.m
    t = norm_returns.shape[-1] - m
    positions = [torch.zeros(1)]
    for i in range(1, t):
        features = torch.cat([norm_returns[i - 1:i + m - 1], positions[-1]])
        positions.append(model(features))
    positions.append(torch.zeros(1))
    return torch.cat(positions)[1:]


m, t = 8, 60
prices = 100 * torch.exp(torch.cumsum(0.01 * torch.randn(m + t + 2) + 0.002, 0))
asset_returns = (prices[1:] - prices[:-1]) / prices[:-1]
norm_returns = (asset_returns[:m + t] - asset_returns[:m + t].mean()) / asset_returns[:m + t].std()

model = RRLModel(m)
sharpe = reward(asset_returns, update_Ft(norm_returns, model), m)
(-sharpe).backward()
grad_inplace = [p.grad.clone() for p in model.parameters()]

model.zero_grad()
(-reward(asset_returns, update_Ft_stack(norm_returns, model), m)).backward()
grad_stack = [p.grad.clone() for p in model.parameters()]
assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(grad_inplace, grad_stack))
assert all(g.abs().sum() > 0 for g in grad_inplace)

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
start = sharpe.item()
for _ in range(60):
    optimizer.zero_grad()
    s = reward(asset_returns, update_Ft(norm_returns, model), m)
    (-s).backward()
    optimizer.step()
assert s.item() > start, (start, s.item())
print(f"in-place position buffer: gradients match the stacked version; Sharpe {start:.3f} -> {s.item():.3f}")

"""expect: GL002 26
dynamic: confirm
source: https://github.com/laekov/fastmoe/issues/49

Two mixture-of-experts layers with hard top-1 routing; the routers are meant to be trained
by the load-balancing auxiliary loss. The helper that aggregates the per-layer balance losses
builds `torch.tensor(loss_list)`, which copies the values out of autograd, so the routers
never receive a gradient while the experts keep training on the task loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def switch_balance_loss(router_probs, expert_index, n_experts):
    frac_tokens = torch.bincount(expert_index, minlength=n_experts).float() / expert_index.numel()
    mean_prob = router_probs.mean(dim=0)
    return n_experts * (frac_tokens * mean_prob).sum()


def total_balance_loss(layers):
    loss_list = []
    for layer in layers:
        probs, idx = layer.last_routing
        loss_list.append(switch_balance_loss(probs, idx, layer.n_experts))
    return torch.tensor(loss_list).mean()


class HardRoutedMoE(nn.Module):
    def __init__(self, dim, n_experts):
        super().__init__()
        self.n_experts = n_experts
        self.router = nn.Linear(dim, n_experts)
        self.experts = nn.ModuleList(nn.Linear(dim, dim) for _ in range(n_experts))
        self.last_routing = None

    def forward(self, x):
        probs = F.softmax(self.router(x), dim=-1)
        idx = probs.argmax(dim=-1)
        all_out = torch.stack([e(x) for e in self.experts], dim=1)
        self.last_routing = (probs, idx)
        return x + all_out[torch.arange(x.size(0)), idx]


torch.manual_seed(0)
layers = nn.ModuleList([HardRoutedMoE(16, 4), HardRoutedMoE(16, 4)])
head = nn.Linear(16, 1)
opt = torch.optim.Adam(list(layers.parameters()) + list(head.parameters()), lr=1e-3)

for step in range(5):
    tokens, target = torch.randn(64, 16), torch.randn(64, 1)
    h = tokens
    for layer in layers:
        h = layer(h)
    loss = F.mse_loss(head(h), target) + 0.01 * total_balance_loss(layers)
    opt.zero_grad()
    loss.backward()
    opt.step()

assert all(layer.router.weight.grad is None for layer in layers)
assert head.weight.grad is not None
print("ok: routers never trained by the balance loss")

"""expect: GL002 49
dynamic: confirm
source: https://github.com/laekov/fastmoe/issues/49

A small mixture-of-experts stack keeps a switch-style load-balancing loss per layer and the
training step averages those per-layer terms into one auxiliary loss added to the task loss.
The per-layer terms are gathered into a Python list and turned into a tensor with
torch.tensor(), which copies their values into a fresh leaf with no autograd history. The task
loss still backpropagates, so training runs, but the balancing term never reaches the gates:
the gate gradients are exactly the ones the task loss alone produces.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RoutedLayer(nn.Module):
    def __init__(self, dim=8, n_expert=4):
        super().__init__()
        self.gate = nn.Linear(dim, n_expert)
        self.experts = nn.ModuleList(nn.Linear(dim, dim) for _ in range(n_expert))
        self.aux = None

    def forward(self, h):
        scores = F.softmax(self.gate(h), dim=-1)
        choice = scores.argmax(dim=-1)
        mixed = torch.stack([self.experts[e](h[i]) for i, e in enumerate(choice.tolist())])
        mixed = mixed * scores.gather(1, choice[:, None])
        routed_share = F.one_hot(choice, scores.shape[1]).float().mean(0)
        self.aux = scores.shape[1] * (routed_share * scores.mean(0)).sum()
        return h + mixed


class TinyMoE(nn.Module):
    def __init__(self, depth=2):
        super().__init__()
        self.blocks = nn.ModuleList(RoutedLayer() for _ in range(depth))
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return self.head(x)


def training_loss(model, x, y, balance_weight):
    task = F.mse_loss(model(x), y)
    per_layer = [blk.aux for blk in model.blocks]
    balance = torch.tensor(per_layer).mean() * balance_weight
    return task + balance, balance


torch.manual_seed(0)
net = TinyMoE()
xb, yb = torch.randn(32, 8), torch.randn(32, 1)

net.zero_grad()
total, bal = training_loss(net, xb, yb, balance_weight=1.0)
total.backward()
gate_grad_with_balance = net.blocks[0].gate.weight.grad.clone()

net.zero_grad()
F.mse_loss(net(xb), yb).backward()
gate_grad_task_only = net.blocks[0].gate.weight.grad.clone()

print("balance term:", bal.item(), "requires_grad:", bal.requires_grad)
assert not bal.requires_grad
assert torch.allclose(gate_grad_with_balance, gate_grad_task_only)

# With the per-layer terms kept in the graph the balance loss does move the gates.
net.zero_grad()
net(xb)
attached = torch.stack([blk.aux for blk in net.blocks]).mean()
attached.backward()
assert net.blocks[0].gate.weight.grad.abs().sum() > 0
print("balance loss never reaches the gates")

"""
expect: none
dynamic: dismiss
source: https://github.com/omrijsharon/hypernetworks/blob/0e7109b9b24558ce327723ebbec9dccf4f616cb4/hyper_network.py

A hypernetwork: a parent model maps a task input x to a flat vector that is split,
reshaped and copied into a deep copy of a small child model, one child per sample;
the child then runs on y. The copy looks like a cut: each child parameter is first
switched to requires_grad_(False) and then overwritten with params.copy_(...). But
copy_ into a tensor that does not require grad records a CopyBackwards node, so the
child weights become non-leaf tensors with history back to the parent, and a loss on
the children's outputs trains the parent. The asserts show the parent gets nonzero
gradients, its weights move, and the loss drops on a toy regression.
"""
from copy import deepcopy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class HyperNetwork(nn.Module):
    def __init__(self, parent, child):
        super().__init__()
        self.shapes = [tuple(p.shape) for p in child.parameters()]
        self.sizes = [p.numel() for p in child.parameters()]
        self.child = child
        self.parent = nn.Sequential(parent, nn.Linear(list(parent.parameters())[-1].size(0), sum(self.sizes)))

    def construct(self, flat):
        children = [deepcopy(self.child) for _ in range(flat.size(0))]
        chunks = torch.split(flat, self.sizes, dim=1)
        for i, child in enumerate(children):
            for params, chunk, shape in zip(child.parameters(), chunks, self.shapes):
                params.requires_grad_(False)
                params.copy_(chunk[i].reshape(shape))
        return children

    def forward(self, x, y):
        children = self.construct(self.parent(x))
        return torch.stack([child(y[i]) for i, child in enumerate(children)])


parent = nn.Sequential(nn.Linear(3, 16), nn.Tanh())
child = nn.Linear(2, 1)
model = HyperNetwork(parent, child)
opt = torch.optim.Adam(model.parent.parameters(), lr=1e-2)

task = torch.randn(32, 3)
y = torch.randn(32, 5, 2)
true_w = task[:, :2].unsqueeze(1)
target = (y * true_w).sum(-1, keepdim=True)

start = [p.detach().clone() for p in model.parent.parameters()]
losses = []
for step in range(60):
    loss = ((model(task, y) - target) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    if step == 0:
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parent.parameters())
    opt.step()
    losses.append(loss.item())

assert any(not torch.equal(s, p) for s, p in zip(start, model.parent.parameters()))
assert losses[-1] < 0.5 * losses[0], (losses[0], losses[-1])
print(f"hypernetwork trains through copy_: loss {losses[0]:.3f} -> {losses[-1]:.3f}")

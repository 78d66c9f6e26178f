"""
expect: GL005 32
dynamic: confirm
source: kinds check 23, kind 4 (written for this check)

A tabular credit-default MLP applies its ModuleList in an enumerate loop with sigmoid hidden units, and zero-centres
each hidden activation with `h -= 0.5`. torch.sigmoid saved its output for backward, so that in-place subtraction
invalidates it and loss.backward() raises "modified by an inplace operation". The asserts catch that error in the
trainer and show the out-of-place `h = h - 0.5` version of the same loop trains and reaches every parameter.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TabularNet(nn.Module):
    def __init__(self, n_num, cat_sizes, emb_dim=4, hidden=(32, 16)):
        super().__init__()
        self.embs = nn.ModuleList(nn.Embedding(c, emb_dim) for c in cat_sizes)
        sizes = [n_num + emb_dim * len(cat_sizes), *hidden, 1]
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))

    def inputs(self, num, cat):
        return torch.cat([num] + [emb(cat[:, j]) for j, emb in enumerate(self.embs)], dim=1)

    def forward(self, num, cat):
        h = self.inputs(num, cat)
        for i, layer in enumerate(self.layers):
            h = layer(h)
            if i < len(self.layers) - 1:
                h = torch.sigmoid(h)
                h -= 0.5
        return h.squeeze(1)

    def forward_fixed(self, num, cat):
        h = self.inputs(num, cat)
        for i, layer in enumerate(self.layers):
            h = layer(h)
            if i < len(self.layers) - 1:
                h = torch.sigmoid(h) - 0.5
        return h.squeeze(1)


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def step(self, num, cat, y, fixed=False):
        logits = self.model.forward_fixed(num, cat) if fixed else self.model(num, cat)
        loss = F.binary_cross_entropy_with_logits(logits, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


torch.manual_seed(11)
num = torch.randn(64, 5)
cat = torch.stack([torch.randint(0, 3, (64,)), torch.randint(0, 7, (64,))], dim=1)
y = (torch.rand(64) < 0.2).float()
trainer = Trainer(TabularNet(5, [3, 7]))

try:
    trainer.step(num, cat, y)
    raise AssertionError("expected backward to fail after the in-place centring")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err

trainer.step(num, cat, y, fixed=True)
trainer.opt.zero_grad()
F.binary_cross_entropy_with_logits(trainer.model.forward_fixed(num, cat), y).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in trainer.model.parameters())
print("bug confirmed: h -= 0.5 after sigmoid breaks backward in the layer loop")

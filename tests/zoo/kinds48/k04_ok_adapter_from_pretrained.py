"""
expect: none
dynamic: dismiss
source: kinds check 48, kind 2

A recommender fine-tune: the item table starts as a clone of a pretrained
embedding (a deliberate fresh start that is trained independently) and a
zero-initialised bias is created in __init__. Both are ordinary trainable
leaves; every parameter receives gradient and the pretrained table is untouched.
"""
import torch
import torch.nn as nn

torch.manual_seed(3)
pretrained = nn.Embedding(100, 12)


class ItemScorer(nn.Module):
    def __init__(self, base_table):
        super().__init__()
        self.items = nn.Parameter(base_table.weight.detach().clone())
        self.bias = nn.Parameter(torch.zeros(100))
        self.user_proj = nn.Linear(12, 12)

    def forward(self, user_vec, item_ids):
        u = self.user_proj(user_vec)
        return (u * self.items[item_ids]).sum(-1) + self.bias[item_ids]


scorer = ItemScorer(pretrained)
orig = pretrained.weight.detach().clone()
opt = torch.optim.SGD(scorer.parameters(), lr=0.1)
users, ids = torch.randn(64, 12), torch.randint(0, 100, (64,))
clicks = torch.randint(0, 2, (64,)).float()
start = scorer.items.detach().clone()
for _ in range(10):
    opt.zero_grad()
    loss = nn.functional.binary_cross_entropy_with_logits(scorer(users, ids), clicks)
    loss.backward()
    opt.step()
for name, p in scorer.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
assert not torch.equal(start, scorer.items.detach())
assert torch.equal(orig, pretrained.weight) and pretrained.weight.grad is None
print("ok: all parameters trained, pretrained table untouched")

"""
expect: GL001 24
dynamic: confirm
source: kind D

A customer-churn model for tabular data with a randomly initialised categorical embedding
block created in `__init__`; its `encode_categories` method looks the categories up under
torch.no_grad() while training with an optimizer over `model.parameters()`. The asserts show
the embedding tables stay at their random init with no gradient, unlike a variant without the no_grad.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChurnModel(nn.Module):
    def __init__(self, cardinalities=(7, 12, 4), emb_dim=4, n_numeric=5):
        super().__init__()
        self.cat_embeds = nn.ModuleList(nn.Embedding(c, emb_dim) for c in cardinalities)
        width = emb_dim * len(cardinalities) + n_numeric
        self.mlp = nn.Sequential(nn.Linear(width, 32), nn.ReLU(), nn.Linear(32, 1))

    def encode_categories(self, cats):
        with torch.no_grad():
            parts = [emb(cats[:, i]) for i, emb in enumerate(self.cat_embeds)]
        return torch.cat(parts, dim=1)

    def forward(self, cats, numeric):
        x = torch.cat([self.encode_categories(cats), numeric], dim=1)
        return self.mlp(x).squeeze(-1)


class ChurnModelFixed(ChurnModel):
    def encode_categories(self, cats):
        return torch.cat([emb(cats[:, i]) for i, emb in enumerate(self.cat_embeds)], dim=1)


def train(cls):
    torch.manual_seed(0)
    model = cls()
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    cats = torch.stack([torch.randint(0, c, (64,)) for c in (7, 12, 4)], dim=1)
    numeric = torch.randn(64, 5)
    churned = (torch.rand(64) > 0.7).float()
    before = model.cat_embeds[1].weight.detach().clone()
    for _ in range(4):
        opt.zero_grad()
        F.binary_cross_entropy_with_logits(model(cats, numeric), churned).backward()
        opt.step()
    return model, before


model, before = train(ChurnModel)
assert model.cat_embeds[1].weight.grad is None
assert torch.equal(model.cat_embeds[1].weight, before)

model, before = train(ChurnModelFixed)
assert model.cat_embeds[1].weight.grad is not None
assert not torch.equal(model.cat_embeds[1].weight, before)
print("d2 ok")

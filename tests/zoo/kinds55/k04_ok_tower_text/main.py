"""
expect: none
dynamic: dismiss
source: kinds check 55, kind 2

Review-sentiment classifier over a pretrained sentence tower (towers.py) used
as a fixed feature extractor: the tower stays frozen and only the linear head is
handed to the optimizer, so the @torch.no_grad() forward loses nothing.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from towers import SentenceTower


class ReviewClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.tower = SentenceTower()
        self.head = nn.Linear(48, 3)

    def forward(self, token_ids):
        z = self.tower(token_ids)
        return self.head(z)


torch.manual_seed(0)
model = ReviewClassifier()
opt = torch.optim.SGD(model.head.parameters(), lr=0.5)
before_head = model.head.weight.clone()
before_tower = model.tower.mix.weight.clone()
for _ in range(3):
    ids = torch.randint(0, 500, (16, 12))
    y = torch.randint(0, 3, (16,))
    loss = F.cross_entropy(model(ids), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
assert not torch.equal(before_head, model.head.weight)
assert torch.equal(before_tower, model.tower.mix.weight)
print("ok: head trains over frozen tower")

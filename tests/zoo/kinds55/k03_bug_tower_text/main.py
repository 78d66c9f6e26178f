"""
expect: GL001 main.py:24
dynamic: confirm
source: kinds check 55, kind 2

Review-sentiment classifier over a pretrained sentence tower (towers.py). The
fine-tuning script thaws the tower and gives all parameters to the optimizer,
but the tower's forward is decorated @torch.no_grad(), so its output carries no
graph and the tower never moves.
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
model.tower.thaw()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
before = model.tower.mix.weight.clone()
for _ in range(3):
    ids = torch.randint(0, 500, (16, 12))
    y = torch.randint(0, 3, (16,))
    loss = F.cross_entropy(model(ids), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
assert model.tower.mix.weight.requires_grad
assert model.tower.mix.weight.grad is None
assert torch.equal(before, model.tower.mix.weight)
# without the decorator the thawed tower would receive a gradient
z = torch.tanh(model.tower.mix(model.tower.emb(ids)))
F.cross_entropy(model.head(z), y).backward()
assert model.tower.mix.weight.grad.abs().sum() > 0
print("ok: thawed tower never trained")

"""
expect: GL003 37
dynamic: confirm
source: kinds check 31, kind 4

A rating model's weighted loss is computed under no_grad and then forced on
with requires_grad_ in the same expression. backward() runs without complaint
but stops at that new leaf, so the embeddings and head never get a gradient.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Rater(nn.Module):
    def __init__(self, n_users=30, n_items=40, d=8):
        super().__init__()
        self.u = nn.Embedding(n_users, d)
        self.i = nn.Embedding(n_items, d)
        self.bias = nn.Linear(2 * d, 1)

    def forward(self, users, items):
        h = torch.cat([self.u(users), self.i(items)], dim=-1)
        return self.bias(h).squeeze(-1)


model = Rater()
crit = nn.MSELoss(reduction="none")
users = torch.randint(0, 30, (50,))
items = torch.randint(0, 40, (50,))
ratings = torch.rand(50) * 5
w = torch.rand(50)

with torch.no_grad():
    out = model(users, items)
loss = (crit(out, ratings) * w).requires_grad_(True)
loss.mean().backward()

assert loss.is_leaf
assert all(p.grad is None for p in model.parameters()), "model should get no gradient"
print("ok: model received no gradient")

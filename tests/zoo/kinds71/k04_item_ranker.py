"""
expect: GL001 27
dynamic: confirm
source: none, invented

A two-tower-ish item ranker for recommendations. Its hidden layer keeps a copy of its activations in a dict
(self.cache["act"]) so they can be inspected. The training loop adds an L1 sparsity penalty computed from
model.hidden.cache["act"] to the ranking loss. The cached copy was stored with .detach(), so the penalty is a
constant with respect to the parameters: it changes the reported loss but adds no gradient, and the activations
are never pushed towards sparsity. This is a bug.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class InspectableHidden(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)
        self.cache = {}

    def forward(self, x):
        act = F.relu(self.lin(x))
        self.cache["act"] = act.detach()
        return act


class ItemRanker(nn.Module):
    def __init__(self, n_users=50, n_items=80, dim=16):
        super().__init__()
        self.users = nn.Embedding(n_users, dim)
        self.items = nn.Embedding(n_items, dim)
        self.hidden = InspectableHidden(2 * dim, 32)
        self.score = nn.Linear(32, 1)

    def forward(self, u, i):
        h = self.hidden(torch.cat([self.users(u), self.items(i)], dim=-1))
        return self.score(h).squeeze(-1)


model = ItemRanker()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
u = torch.randint(0, 50, (64,))
i = torch.randint(0, 80, (64,))
clicked = torch.randint(0, 2, (64,)).float()
l1 = 1e-2

for step in range(3):
    opt.zero_grad()
    logits = model(u, i)
    loss = F.binary_cross_entropy_with_logits(logits, clicked)
    loss = loss + l1 * model.hidden.cache["act"].abs().mean()
    loss.backward()
    opt.step()

# Proof: the penalty term has no graph, and the gradient equals the ranking loss alone.
model.zero_grad()
logits = model(u, i)
penalty = l1 * model.hidden.cache["act"].abs().mean()
assert not penalty.requires_grad and penalty.item() > 0
(F.binary_cross_entropy_with_logits(logits, clicked) + penalty).backward()
g_with = model.hidden.lin.weight.grad.clone()
model.zero_grad()
F.binary_cross_entropy_with_logits(model(u, i), clicked).backward()
assert torch.equal(g_with, model.hidden.lin.weight.grad), "sparsity penalty adds no gradient"
print("k04 ok: sparsity penalty trains nothing")

"""
expect: GL001 32
dynamic: confirm
source: kinds check 23, kind 1 (written for this check)

A two-tower retrieval model held in a dict. The item tower's output is .detach()ed (the writer meant to cache it
for the ANN index) before the dot-product score, yet the single Adam over both towers is stepped every batch,
and that score is the item tower's only loss. The item tower is therefore starved. The asserts show its grads stay
None and its weights never change over training, while the user tower moves and the uncut score reaches it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2)
N_USERS, N_ITEMS, DIM = 50, 80, 16

towers = {
    "user": nn.Sequential(nn.Embedding(N_USERS, DIM), nn.Linear(DIM, DIM)),
    "item": nn.Sequential(nn.Embedding(N_ITEMS, DIM), nn.Linear(DIM, DIM), nn.Tanh()),
}
optimizer = torch.optim.Adam(
    [p for tower in towers.values() for p in tower.parameters()], lr=1e-2)

item_before = [p.detach().clone() for p in towers["item"].parameters()]
user_before = [p.detach().clone() for p in towers["user"].parameters()]
index_cache = {}


def click_loss(users, items, clicked):
    u = towers["user"](users)
    v = towers["item"](items).detach()
    index_cache["last"] = v
    logits = (u * v).sum(dim=-1)
    return F.binary_cross_entropy_with_logits(logits, clicked)


for step in range(20):
    users = torch.randint(0, N_USERS, (64,))
    items = torch.randint(0, N_ITEMS, (64,))
    clicked = (torch.rand(64) < 0.3).float()
    loss = click_loss(users, items, clicked)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

# the item tower is in the stepped optimizer but never receives a gradient
assert all(p.grad is None for p in towers["item"].parameters())
assert all(torch.equal(a, b) for a, b in zip(item_before, towers["item"].parameters()))
assert any(not torch.equal(a, b) for a, b in zip(user_before, towers["user"].parameters()))

# fixed variant: the same score without the cut does reach the item tower
users, items = torch.randint(0, N_USERS, (64,)), torch.randint(0, N_ITEMS, (64,))
fixed = F.binary_cross_entropy_with_logits(
    (towers["user"](users) * towers["item"](items)).sum(-1), torch.ones(64))
fixed.backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in towers["item"].parameters())
print("bug confirmed: item tower starved by the detach in click_loss")

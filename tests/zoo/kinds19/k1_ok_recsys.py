"""
expect: none
dynamic: dismiss
source: kinds check 19, kind 1 (written for this check)

A two-tower recommender accumulates a BPR ranking loss and a rating regression
loss with `+=` over mini-batches, then `*= 0.5` and `/= n`. The rating target is a
detached teacher score, which is correct: the prediction side stays connected, so
every term reaches the towers. The asserts show both towers get nonzero grads and
that the regression weight does change the gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2)
N_USERS, N_ITEMS, D = 50, 80, 16


class TwoTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = nn.Embedding(N_USERS, D)
        self.items = nn.Embedding(N_ITEMS, D)

    def score(self, u, i):
        return (self.users(u) * self.items(i)).sum(-1)


model = TwoTower()
teacher = TwoTower()  # frozen popularity/teacher model, provides targets only
opt = torch.optim.SGD(model.parameters(), lr=0.05)


def epoch_loss(lam, batches):
    loss = 0
    for u, pos, neg in batches:
        loss += -F.logsigmoid(model.score(u, pos) - model.score(u, neg)).mean()
        target = teacher.score(u, pos).detach()
        loss += lam * F.mse_loss(model.score(u, pos), target)
    loss *= 0.5
    loss /= len(batches)
    return loss


batches = [(torch.randint(0, N_USERS, (32,)), torch.randint(0, N_ITEMS, (32,)),
            torch.randint(0, N_ITEMS, (32,))) for _ in range(4)]

grads = {}
for lam in (0.0, 1.0):
    opt.zero_grad(set_to_none=True)
    epoch_loss(lam, batches).backward()
    grads[lam] = [p.grad.clone() for p in model.parameters()]
    assert all(g.abs().sum() > 0 for g in grads[lam])
assert all(p.grad is None for p in teacher.parameters())
assert not all(torch.allclose(a, b) for a, b in zip(grads[0.0], grads[1.0])), "term is live"
opt.step()
print("k1_ok_recsys: every accumulated term reaches the towers")

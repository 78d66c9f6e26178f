"""
expect: GL001 losses.py:10
dynamic: confirm
source: https://github.com/bohyunshin/recommender/blob/4545ae6364d858f54086601059fff1bd39b9716b/recommender/loss/custom.py

A matrix-factorisation recommender trained with a BPR loss whose L2
regulariser is summed over `param.data` of the embedding tables. The
penalty is built wholly from detached storage, so it adds to the logged
loss value but contributes no gradient: the regularisation weight has no
effect on training. The asserts show the embedding gradient is identical
for weight 0 and weight 10, while a fixed penalty changes it.
"""
import torch
import torch.nn as nn

from losses import bpr_objective, bpr_objective_fixed

torch.manual_seed(0)
torch.set_num_threads(1)


class MF(nn.Module):
    def __init__(self, n_users, n_items, dim=8):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)

    def forward(self, u, i, j):
        eu = self.user(u)
        return (eu * self.item(i)).sum(-1) - (eu * self.item(j)).sum(-1)


def item_grad(model, objective, weight, batch):
    model.zero_grad()
    u, i, j = batch
    loss = objective(model(u, i, j), [model.user.weight, model.item.weight], weight)
    loss.backward()
    return model.item.weight.grad.clone(), loss.item()


model = MF(20, 30)
batch = (torch.randint(0, 20, (16,)), torch.randint(0, 30, (16,)), torch.randint(0, 30, (16,)))

g0, l0 = item_grad(model, bpr_objective, 0.0, batch)
g10, l10 = item_grad(model, bpr_objective, 10.0, batch)
f0, _ = item_grad(model, bpr_objective_fixed, 0.0, batch)
f10, _ = item_grad(model, bpr_objective_fixed, 10.0, batch)

assert l10 > l0 + 1.0                      # the penalty shows up in the logged loss
assert torch.allclose(g0, g10)             # ... but never in the gradient
assert not torch.allclose(f0, f10)         # the fixed penalty does shrink embeddings
print("ok: regulariser built from .data gives no gradient")

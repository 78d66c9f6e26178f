"""
expect: GL001 losses.py:12
dynamic: confirm
source: https://github.com/bohyunshin/recommender/blob/HEAD/recommender/loss/custom.py

A recommender library's BPR loss adds an L2 penalty on the embedding tables,
but builds each norm from `param.data`, so the penalty is a constant that only
hangs off a fresh leaf. The weight-decay term never reaches the user/item
embeddings. Below, a matrix-factorisation model is trained with reg=0 and reg=5:
the embedding gradients are identical, while the fixed penalty changes them.
"""
import torch
import torch.nn as nn

from losses import bpr_loss

torch.manual_seed(0)
torch.set_num_threads(1)


class MF(nn.Module):
    def __init__(self, n_users=20, n_items=30, dim=8):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)

    def forward(self, u, i, j):
        eu = self.user(u)
        return (eu * self.item(i)).sum(-1) - (eu * self.item(j)).sum(-1)


class Trainer:
    def __init__(self, model, reg, fixed=False):
        self.model = model
        self.reg = reg
        self.fixed = fixed

    def grads(self, u, i, j):
        self.model.zero_grad()
        diff = self.model(u, i, j)
        params = [self.model.user.weight, self.model.item.weight]
        loss = bpr_loss(diff, params, self.reg, fixed=self.fixed)
        loss.backward()
        return self.model.user.weight.grad.clone()


base = MF()
state = {k: v.clone() for k, v in base.state_dict().items()}
u = torch.randint(0, 20, (64,))
i = torch.randint(0, 30, (64,))
j = torch.randint(0, 30, (64,))


def run(reg, fixed):
    m = MF()
    m.load_state_dict(state)
    return Trainer(m, reg, fixed).grads(u, i, j)


g_noreg = run(0.0, False)
g_reg = run(5.0, False)
g_fixed = run(5.0, True)

# buggy: the penalty weight changes nothing in the embedding gradients
assert torch.allclose(g_noreg, g_reg)
# fixed: the penalty really pulls the embeddings
assert not torch.allclose(g_noreg, g_fixed, atol=1e-3)
print("ok")

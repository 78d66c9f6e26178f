"""
expect: none
dynamic: dismiss
source: none, invented

Rating prediction with biased matrix factorization on a synthetic low-rank ratings matrix.  `BiasedMF`
(recsys.py) keeps its embedding rows inside a ball of radius `max_norm` and re-zeroes the padding item
by editing the weights through `.data` (`renorm_`, `data[0] = 0`) in `constrain_()`.  The training loop
calls `model.constrain_()` at the top of each iteration, before the forward pass, so the edited
weights are exactly the ones the forward then uses and saves; nothing recorded yet refers to them.
The asserts check that the gradients equal those of a deep copy that was constrained out of band,
that every embedding row respects the norm bound at forward time, and that the held-out RMSE falls
well below the RMSE of predicting the global mean.
"""
import copy

import torch
import torch.nn.functional as F

from recsys import BiasedMF

torch.manual_seed(0)
torch.set_num_threads(1)

N_USERS, N_ITEMS = 200, 150
true_u = 0.8 * torch.randn(N_USERS, 4)
true_i = 0.8 * torch.randn(N_ITEMS, 4)
ratings = (3.0 + true_u @ true_i.T).clamp(1, 5)
pairs = torch.cartesian_prod(torch.arange(N_USERS), torch.arange(N_ITEMS))
pairs = pairs[torch.randperm(len(pairs))]
train_pairs, test_pairs = pairs[:15000], pairs[15000:20000]


def lookup(p):
    return p[:, 0], p[:, 1] + 1, ratings[p[:, 0], p[:, 1]]


model = BiasedMF(N_USERS, N_ITEMS)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

for step in range(600):
    batch = train_pairs[torch.randint(0, len(train_pairs), (256,))]
    user, item, r = lookup(batch)
    model.constrain_()
    if step == 0:
        twin = copy.deepcopy(model)
    assert model.users.weight.norm(dim=1).max() <= model.max_norm + 1e-5
    assert model.items.weight.norm(dim=1).max() <= model.max_norm + 1e-5
    loss = F.mse_loss(model(user, item), r)
    opt.zero_grad()
    loss.backward()
    if step == 0:
        F.mse_loss(twin(user, item), r).backward()
        for p, q in zip(model.parameters(), twin.parameters()):
            assert torch.allclose(p.grad, q.grad, atol=1e-7)
    opt.step()

with torch.no_grad():
    user, item, r = lookup(test_pairs)
    rmse = F.mse_loss(model(user, item), r).sqrt().item()
    baseline = (r - r.mean()).pow(2).mean().sqrt().item()
assert rmse < 0.5 * baseline, (rmse, baseline)
print(f"k20: norm constraint via .data before forward; RMSE {rmse:.3f} vs mean baseline {baseline:.3f}")

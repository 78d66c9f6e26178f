"""
expect: none
dynamic: dismiss
source: none, invented

Implicit-feedback matrix factorisation with a max-norm constraint on user and item
factors and a clamped log-temperature, the way many recsys repos do it. At every forward
the model's `_apply_constraints` method projects the factors back onto the norm ball: the
user table in place with `copy_` under `torch.no_grad()`, the item table through
`.data.copy_`, the temperature with an in-place `.data.clamp_`. All three keep the same
Parameter objects the optimizer holds and stay out of the graph, so the factors keep
receiving gradients and training. The asserts show the optimizer's tensors are still the
module's tensors, all get gradients, the loss falls, and every row norm stays <= max_norm.
"""
import torch
import torch.nn.functional as F

from model import MatrixFactorization

torch.manual_seed(0)
torch.set_num_threads(1)

n_users, n_items = 30, 40
model = MatrixFactorization(n_users, n_items, max_norm=1.0)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
held = [p for g in opt.param_groups for p in g["params"]]
users_before = model.users.weight.detach().clone()

u = torch.randint(0, n_users, (256,))
i = torch.randint(0, n_items, (256,))
clicks = (torch.rand(256) < 0.3).float()

losses = []
for epoch in range(40):
    logits = model(u, i)
    loss = F.binary_cross_entropy_with_logits(logits, clicks)
    opt.zero_grad()
    loss.backward()
    assert model.users.weight.grad.abs().sum() > 0
    assert model.items.weight.grad.abs().sum() > 0
    assert model.log_temp.grad is not None
    opt.step()
    losses.append(loss.item())

held_ids = {id(p) for p in held}
assert {id(model.users.weight), id(model.items.weight), id(model.log_temp)} == held_ids
assert not torch.equal(model.users.weight, users_before)
assert losses[-1] < losses[0]
model._apply_constraints()
assert model.users.weight.norm(dim=1).max() <= 1.0 + 1e-5
assert model.items.weight.norm(dim=1).max() <= 1.0 + 1e-5
print("ok")

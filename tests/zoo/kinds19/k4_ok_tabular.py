"""
expect: none
dynamic: dismiss
source: kinds check 19, kind 4 (written for this check)

Adversarial training of a credit-default MLP on tabular features. `leafify(x)`
returns `x.detach().requires_grad_()` and is bound back (`x = leafify(x)`), but here
`x` is the raw feature batch the user built, so nothing upstream of it should train;
the leaf is only there to get d(loss)/d(x) for an FGSM perturbation. The model then
trains on a fresh forward of the perturbed batch. The asserts show the input gradient
exists, the model's parameters all get gradients and move, and robust loss drops.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def leafify(t):
    return t.detach().requires_grad_()


class CreditMLP(nn.Module):
    def __init__(self, n_num, n_cat_levels, emb=4):
        super().__init__()
        self.cat = nn.Embedding(n_cat_levels, emb)
        self.body = nn.Sequential(nn.Linear(n_num + emb, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x_num, x_cat):
        return self.body(torch.cat([x_num, self.cat(x_cat)], -1)).squeeze(-1)


def fgsm_batch(model, x_num, x_cat, y, eps):
    x_num = leafify(x_num)
    loss = F.binary_cross_entropy_with_logits(model(x_num, x_cat), y)
    (g,) = torch.autograd.grad(loss, x_num)
    return (x_num + eps * g.sign()).detach()


torch.manual_seed(11)
n = 256
x_num = torch.randn(n, 10)
x_cat = torch.randint(0, 7, (n,))
y = ((x_num[:, 0] + 0.5 * x_num[:, 1] + (x_cat == 3).float()) > 0.5).float()
model = CreditMLP(10, 7)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


def robust_loss():
    adv = fgsm_batch(model, x_num, x_cat, y, eps=0.05)
    return F.binary_cross_entropy_with_logits(model(adv, x_cat), y)


start = robust_loss().item()
x_leaf = leafify(x_num)
F.binary_cross_entropy_with_logits(model(x_leaf, x_cat), y).backward()
assert x_leaf.grad is not None and x_leaf.is_leaf and x_num.grad is None
for step in range(40):
    opt.zero_grad()
    adv = fgsm_batch(model, x_num, x_cat, y, eps=0.05)
    loss = F.binary_cross_entropy_with_logits(model(adv, x_cat), y)
    loss.backward()
    if step == 0:
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
    opt.step()
assert robust_loss().item() < start
print("k4_ok_tabular: leaf remade on a user input; model trains", start, "->", robust_loss().item())

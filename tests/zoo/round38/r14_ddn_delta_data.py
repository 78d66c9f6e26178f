"""
expect: none
dynamic: dismiss
source: https://github.com/jeromerony/fast_adversarial/issues/3

Decoupled-direction-and-norm (DDN) attack: the perturbation `delta` is a leaf
optimised by an SGD optimizer, and after each `optimizer.step()` the code
rescales and clips it through `delta.data`. A reader asked whether editing
`delta.data` breaks the optimisation. It does not: backward has already run,
and each iteration builds a fresh graph from the edited leaf. The asserts show
the attack raises the loss, respects the norm budget, and matches a variant
doing the same edits under `torch.no_grad()`.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class DDNAttack:
    def __init__(self, steps=10, gamma=0.05, init_norm=1.0):
        self.steps = steps
        self.gamma = gamma
        self.init_norm = init_norm

    def perturb(self, model, x, y, use_data=True):
        delta = torch.zeros_like(x, requires_grad=True)
        norm = torch.full((x.shape[0],), self.init_norm)
        opt = torch.optim.SGD([delta], lr=0.5)
        for _ in range(self.steps):
            adv = x + delta
            logits = model(adv)
            loss = -F.cross_entropy(logits, y, reduction="sum")  # ascend the CE
            opt.zero_grad()
            loss.backward()
            g = delta.grad
            delta.grad = g / g.flatten(1).norm(dim=1).clamp_min(1e-12).view(-1, 1)
            opt.step()
            is_adv = logits.argmax(1) != y
            norm = norm * torch.where(is_adv, 1 - self.gamma, 1 + self.gamma)
            if use_data:
                scale = norm / delta.data.flatten(1).norm(dim=1).clamp_min(1e-12)
                delta.data.mul_(scale.view(-1, 1))
                delta.data.add_(x).clamp_(-3, 3).sub_(x)
            else:
                with torch.no_grad():
                    scale = norm / delta.flatten(1).norm(dim=1).clamp_min(1e-12)
                    delta.mul_(scale.view(-1, 1))
                    delta.add_(x).clamp_(-3, 3).sub_(x)
        return (x + delta).detach(), norm


model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
x = torch.randn(64, 10).clamp(-2.5, 2.5)
y = torch.randint(0, 4, (64,))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for _ in range(100):
    opt.zero_grad()
    F.cross_entropy(model(x), y).backward()
    opt.step()
for p in model.parameters():
    p.requires_grad_(False)

w0 = model[0].weight.clone()
atk = DDNAttack()
adv, norm = atk.perturb(model, x, y, use_data=True)
adv_ref, _ = atk.perturb(model, x, y, use_data=False)

clean_loss = F.cross_entropy(model(x), y)
adv_loss = F.cross_entropy(model(adv), y)
assert adv_loss > clean_loss + 0.1
assert torch.allclose(adv, adv_ref, atol=1e-6)
assert ((adv - x).flatten(1).norm(dim=1) <= norm + 1e-4).all()
assert torch.equal(w0, model[0].weight)
print("ok", clean_loss.item(), adv_loss.item())

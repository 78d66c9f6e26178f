"""
expect: none
dynamic: dismiss
source: kinds check 24, kind 3 (written for this check)

The trainer computes `(1 / 2) * w.norm().pow(2).item()` only to log it and to scale the decay
coefficient (a schedule), while the tensor penalty `0.5 * w.pow(2).sum()` is what joins the
loss. The asserts show the first layer's gradient differs with base_lam 0 and 0.5, every
parameter gets a nonzero gradient, and the logged value matches the tensor penalty.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class ChurnModel(nn.Module):
    def __init__(self, n_num=6, n_cat=10, d=4):
        super().__init__()
        self.cat_emb = nn.Embedding(n_cat, d)
        self.body = nn.Sequential(nn.Linear(n_num + d, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, num, cat):
        return self.body(torch.cat([num, self.cat_emb(cat)], dim=1)).squeeze(1)


class DecayTrainer:
    def __init__(self, model, base_lam, cap=20.0):
        self.model, self.base_lam, self.cap = model, base_lam, cap
        self.opt = torch.optim.SGD(model.parameters(), lr=0.01)
        self.history = []

    def step(self, num, cat, y):
        self.opt.zero_grad()
        w = self.model.body[0].weight
        reg = 0.5 * w.pow(2).sum()
        reg_value = (1 / 2) * w.norm().pow(2).item()
        lam = self.base_lam * min(1.0, self.cap / reg_value)
        loss = F.binary_cross_entropy_with_logits(self.model(num, cat), y) + lam * reg
        loss.backward()
        self.history.append({"reg": reg_value, "lam": lam, "loss": loss.item()})
        grads = {n: p.grad.clone() for n, p in self.model.named_parameters()}
        return grads, reg.item()


num, cat, y = torch.randn(64, 6), torch.randint(0, 10, (64,)), torch.randint(0, 2, (64,)).float()
model = ChurnModel()
g0, _ = DecayTrainer(model, base_lam=0.0).step(num, cat, y)
trainer = DecayTrainer(model, base_lam=0.5)
g1, reg = trainer.step(num, cat, y)
assert not torch.allclose(g0["body.0.weight"], g1["body.0.weight"]), "decay gave no gradient"
assert all(g.abs().sum() > 0 for g in g1.values())
assert abs(trainer.history[0]["reg"] - reg) < 1e-4
print("ok: .item() value only logged / scheduled; the tensor penalty trains the weights")

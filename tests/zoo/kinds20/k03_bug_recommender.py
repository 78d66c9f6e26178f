"""
expect: GL003 40
dynamic: confirm
source: kinds check 20, kind 3 (written for this check)

A matrix-factorisation trainer's `fit_batch` calls `loss.backward()` only when
`update` is true. The evaluation loop calls it with `update=True` literally
inside `torch.no_grad()`, so the loss has no graph and backward raises
"does not require grad"; the assert catches that error.
"""
import torch
import torch.nn as nn

torch.manual_seed(4)


class MFTrainer:
    def __init__(self, n_users=20, n_items=30, dim=8):
        self.users = nn.Embedding(n_users, dim)
        self.items = nn.Embedding(n_items, dim)
        params = list(self.users.parameters()) + list(self.items.parameters())
        self.opt = torch.optim.SGD(params, lr=0.1)

    def fit_batch(self, u, i, rating, update):
        pred = (self.users(u) * self.items(i)).sum(-1)
        loss = nn.functional.mse_loss(pred, rating)
        if update:
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
        return loss.item()


trainer = MFTrainer()
u = torch.randint(0, 20, (16,))
i = torch.randint(0, 30, (16,))
r = torch.rand(16) * 5
try:
    with torch.no_grad():
        trainer.fit_batch(u, i, r, True)
    raised = False
except RuntimeError as err:
    raised = "does not require grad" in str(err)
assert raised, "backward under no_grad should raise"
print("ok: update=True inside no_grad makes backward raise")

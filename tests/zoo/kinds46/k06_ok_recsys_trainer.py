"""
expect: none
dynamic: dismiss
source: kinds check 46, kind 3

A plain-Python trainer for a small recommender scores user/item pairs and
keeps a rating loss and a click loss from one forward. train_step runs the
rating backward with retain_graph=True and then the click backward, and only
then steps the optimizer once, so the retained graph is never stale.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RecTrainer:
    def __init__(self, n_users=20, n_items=30):
        torch.manual_seed(4)
        self.users = nn.Embedding(n_users, 8)
        self.items = nn.Embedding(n_items, 8)
        self.head = nn.Linear(16, 2)
        params = [*self.users.parameters(), *self.items.parameters(), *self.head.parameters()]
        self.opt = torch.optim.Adam(params, lr=1e-2)
        self.u = torch.randint(0, n_users, (128,))
        self.i = torch.randint(0, n_items, (128,))
        self.rating = torch.rand(128) * 5
        self.clicked = (torch.rand(128) > 0.5).float()

    def forward_pass(self):
        z = torch.cat([self.users(self.u), self.items(self.i)], dim=1)
        out = self.head(z)
        self.loss_a = F.mse_loss(out[:, 0], self.rating)
        self.loss_b = F.binary_cross_entropy_with_logits(out[:, 1], self.clicked)

    def train_step(self):
        self.forward_pass()
        self.opt.zero_grad()
        self.loss_a.backward(retain_graph=True)
        self.loss_b.backward()
        self.opt.step()
        return self.loss_a.item() + self.loss_b.item()


trainer = RecTrainer()
before = trainer.head.weight.detach().clone()
first = trainer.train_step()
for _ in range(20):
    last = trainer.train_step()
assert not torch.equal(before, trainer.head.weight)
assert last < first, (first, last)
print("ok: both backwards before one step train without error")

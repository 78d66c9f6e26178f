"""
expect: none
dynamic: dismiss
source: kind 3

A sampled-softmax retrieval criterion returns (loss, logits.detach()). The
trainer backpropagates the loss only and uses the detached logits to log the
in-batch hit rate. The asserts show both towers get gradients, the loss falls
and the logged hit rate rises.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class InBatchSoftmax(nn.Module):
    def __init__(self, temperature=0.1):
        super().__init__()
        self.temperature = temperature

    def forward(self, query, item):
        logits = F.normalize(query, dim=-1) @ F.normalize(item, dim=-1).T
        logits = logits / self.temperature
        labels = torch.arange(len(query))
        return F.cross_entropy(logits, labels), logits.detach()


class TwoTowerTrainer:
    def __init__(self, n_users, n_items, dim=32):
        self.user_tower = nn.Sequential(nn.Embedding(n_users, dim), nn.Linear(dim, dim))
        self.item_tower = nn.Sequential(nn.Embedding(n_items, dim), nn.Linear(dim, dim))
        self.criterion = InBatchSoftmax()
        params = [*self.user_tower.parameters(), *self.item_tower.parameters()]
        self.opt = torch.optim.Adam(params, lr=5e-3)

    def step(self, users, items):
        self.opt.zero_grad()
        loss, logits = self.criterion(self.user_tower(users), self.item_tower(items))
        loss.backward()
        for tower in (self.user_tower, self.item_tower):
            assert tower[1].weight.grad.abs().sum() > 0
        self.opt.step()
        hit_rate = (logits.argmax(-1) == torch.arange(len(users))).float().mean()
        return loss.item(), hit_rate.item()


if __name__ == "__main__":
    torch.manual_seed(4)
    trainer = TwoTowerTrainer(100, 100)
    users = torch.randperm(100)[:64]
    items = (users * 7) % 100  # each user likes one fixed item
    history = [trainer.step(users, items) for _ in range(80)]
    (l0, h0), (l1, h1) = history[0], history[-1]
    assert l1 < 0.5 * l0, (l0, l1)
    assert h1 > h0 and h1 > 0.5, (h0, h1)
    print("ok: detached logits only used for hit-rate logging")

"""
expect: GL003 55
dynamic: confirm
source: none, invented

A click-through-rate ranker (user/item embeddings plus an MLP) with a small trainer. `score(users, items,
training)` runs the model under `torch.no_grad()` in eval mode when `training` is false, and
`learn(loss, training)` returns early when `training` is false and otherwise calls
`loss.requires_grad_(True)` and steps the optimizer. `evaluate` hands False to both, which is fine. But
`fit_epoch` first scores the batch with `training=False` to pick hard negatives and then reuses those very
scores for the loss, handing `training=True` to `learn`: the flags differ, the loss was computed with no
graph, and `requires_grad_(True)` turns it into a fresh leaf so `backward` runs without error and reaches
nothing. The asserts show that after a fit epoch the parameters' `.grad` are None and no weight has moved;
`fit_epoch_rescored`, which mines with `training=False` but re-scores the kept pairs with `training=True`,
trains the ranker and lowers its loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_USERS, N_ITEMS = 100, 200


class Ranker(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.user_emb = nn.Embedding(N_USERS, dim)
        self.item_emb = nn.Embedding(N_ITEMS, dim)
        self.mlp = nn.Sequential(nn.Linear(3 * dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, users, items):
        u, i = self.user_emb(users), self.item_emb(items)
        return self.mlp(torch.cat([u, i, u * i], dim=-1)).squeeze(-1)


class RankerTrainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

    def score(self, users, items, training):
        self.model.train(training)
        if not training:
            with torch.no_grad():
                return self.model(users, items)
        return self.model(users, items)

    def learn(self, loss, training):
        if not training:
            return
        self.optimizer.zero_grad()
        loss.requires_grad_(True)
        loss.backward()
        self.optimizer.step()

    def fit_epoch(self, batches):
        for users, items, clicks in batches:
            scores = self.score(users, items, training=False)
            threshold = scores[clicks == 0].median()
            keep = (clicks == 1) | (scores >= threshold)
            loss = F.binary_cross_entropy_with_logits(scores[keep], clicks[keep])
            self.learn(loss, training=True)

    def fit_epoch_rescored(self, batches):
        for users, items, clicks in batches:
            mined = self.score(users, items, training=False)
            threshold = mined[clicks == 0].median()
            keep = (clicks == 1) | (mined >= threshold)
            scores = self.score(users[keep], items[keep], training=True)
            loss = F.binary_cross_entropy_with_logits(scores, clicks[keep])
            self.learn(loss, training=True)

    def evaluate(self, batches):
        total = 0.0
        for users, items, clicks in batches:
            scores = self.score(users, items, training=False)
            loss = F.binary_cross_entropy_with_logits(scores, clicks)
            self.learn(loss, training=False)
            total += loss.item()
        return total / len(batches)


def click_log(n=2048, batch=256):
    g = torch.Generator().manual_seed(3)
    taste = torch.randn(N_USERS, 4, generator=g)
    style = torch.randn(N_ITEMS, 4, generator=g)
    users = torch.randint(0, N_USERS, (n,), generator=g)
    items = torch.randint(0, N_ITEMS, (n,), generator=g)
    clicks = ((taste[users] * style[items]).sum(1) > 0.5).float()
    return [(users[i:i + batch], items[i:i + batch], clicks[i:i + batch]) for i in range(0, n, batch)]


if __name__ == "__main__":
    log = click_log()
    torch.manual_seed(0)
    trainer = RankerTrainer(Ranker())
    before = [p.detach().clone() for p in trainer.model.parameters()]
    loss0 = trainer.evaluate(log)
    for _ in range(8):
        trainer.fit_epoch(log)
    assert all(p.grad is None for p in trainer.model.parameters())
    assert all(torch.equal(a, p.detach()) for a, p in zip(before, trainer.model.parameters()))
    assert trainer.evaluate(log) == loss0

    torch.manual_seed(0)
    trainer = RankerTrainer(Ranker())
    loss0 = trainer.evaluate(log)
    for _ in range(8):
        trainer.fit_epoch_rescored(log)
    assert all(p.grad is not None for p in trainer.model.mlp.parameters())
    assert trainer.evaluate(log) < loss0
    print("k12: ranker learns only when the loss is built from training-mode scores")

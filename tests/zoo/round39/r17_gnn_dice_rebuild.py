"""
expect: GL002 51
dynamic: confirm
source: https://github.com/HPCI-Lab/TC-GNN/blob/HEAD/GNN_tests/main.py

A graph network for tropical-cyclone detection treats grid cells as nodes and tries a Dice score
as its loss. The Dice helper thresholds the predictions, so its result has no gradient, and the
training script carries the workaround `loss = torch.tensor(loss.item(), requires_grad=True)`
with the note "use this (even if the loss stays constant)". The rebuilt loss is a fresh leaf:
backward() runs, the optimizer steps, and the GCN never changes. The asserts show the loss is a
leaf with no grad_fn, the model's .grad stays None over several steps, its weights are unchanged,
and a soft (probability-based) Dice on the same batch does train the network.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def grid_adjacency(h, w):
    n = h * w
    a = torch.eye(n)
    for i in range(h):
        for j in range(w):
            k = i * w + j
            if j + 1 < w:
                a[k, k + 1] = a[k + 1, k] = 1.0
            if i + 1 < h:
                a[k, k + w] = a[k + w, k] = 1.0
    d = a.sum(1).rsqrt()
    return d[:, None] * a * d[None, :]


class GCN(nn.Module):
    def __init__(self, a_hat, d_in, d_h):
        super().__init__()
        self.register_buffer("a_hat", a_hat)
        self.l1, self.l2 = nn.Linear(d_in, d_h), nn.Linear(d_h, 1)

    def forward(self, x):
        h = torch.relu(self.a_hat @ self.l1(x))
        return (self.a_hat @ self.l2(h)).squeeze(-1)


class DiceCriterion:
    def __call__(self, logits, target):
        pred = (torch.sigmoid(logits) > 0.5).float()
        inter = (pred * target).sum()
        dice = 1.0 - (2 * inter + 1.0) / (pred.sum() + target.sum() + 1.0)
        loss = torch.tensor(dice.item(), requires_grad=True)
        return loss


def soft_dice(logits, target):
    p = torch.sigmoid(logits)
    return 1.0 - (2 * (p * target).sum() + 1.0) / (p.sum() + target.sum() + 1.0)


def train(model, criterion, x, y, steps=5):
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss)
    return losses


a_hat = grid_adjacency(8, 8)
x = torch.randn(64, 7)
y = (x[:, 0] > 0.3).float()

model = GCN(a_hat, 7, 16)
before = [p.detach().clone() for p in model.parameters()]
losses = train(model, DiceCriterion(), x, y)
assert all(l.is_leaf and l.grad_fn is None for l in losses)
assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(b, p) for b, p in zip(before, model.parameters()))

torch.manual_seed(0)
model2 = GCN(a_hat, 7, 16)
soft = train(model2, soft_dice, x, y, steps=30)
assert soft[-1].item() < soft[0].item() - 0.05
print("ok: rebuilt Dice trains nothing; soft Dice", soft[0].item(), "->", soft[-1].item())

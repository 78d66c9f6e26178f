"""
expect: GL002 69
dynamic: confirm
source: none, invented

Click-through-rate prediction with a factorization machine over user, item and context fields. In the
training loop the logits are turned into `scores = torch.tensor(logits.clone().detach(),
requires_grad=True)` before the weighted BCE loss (a leftover from a pipeline that built scores from
numpy arrays). The copy is a new leaf: the loss gradient stops at `scores`, so the embeddings and linear
terms held by the optimizer never change. The asserts show every FM parameter with `.grad` None and
unchanged after an epoch, the AUC-like ranking metric staying at its initial value, and the same loop
with the loss on `logits` training all parameters and ranking clicks clearly better.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.filterwarnings("ignore", message="To copy construct from a tensor")
torch.manual_seed(0)
torch.set_num_threads(1)

FIELD_SIZES = (300, 400, 12)  # users, items, hour-of-day buckets


class FactorizationMachine(nn.Module):
    def __init__(self, field_sizes, k=16):
        super().__init__()
        self.offsets = torch.tensor((0,) + tuple(torch.tensor(field_sizes).cumsum(0)[:-1].tolist()))
        n = sum(field_sizes)
        self.linear = nn.Embedding(n, 1)
        self.factors = nn.Embedding(n, k)
        self.bias = nn.Parameter(torch.zeros(1))
        nn.init.normal_(self.factors.weight, std=0.05)

    def forward(self, fields):
        idx = fields + self.offsets
        v = self.factors(idx)
        pair = 0.5 * (v.sum(1).pow(2) - v.pow(2).sum(1)).sum(-1)
        return self.bias + self.linear(idx).sum((1, 2)) + pair


def impressions(n=4000):
    fields = torch.stack([torch.randint(0, s, (n,)) for s in FIELD_SIZES], 1)
    affinity = torch.cos(fields[:, 0].float() * 0.7 + fields[:, 1].float() * 1.3)
    p = torch.sigmoid(3 * affinity + 0.5 * (fields[:, 2] > 8).float() - 1.5)
    return fields, torch.bernoulli(p)


def pairwise_auc(scores, clicks):
    pos, neg = scores[clicks == 1], scores[clicks == 0]
    return (pos[:, None] > neg[None, :]).float().mean().item()


def train(legacy_loss, epochs=6):
    torch.manual_seed(0)
    fm = FactorizationMachine(FIELD_SIZES)
    opt = torch.optim.Adam(fm.parameters(), lr=1e-2)
    fields, clicks = impressions()
    pos_weight = (clicks == 0).sum() / clicks.sum()
    before = [p.detach().clone() for p in fm.parameters()]
    with torch.no_grad():
        auc0 = pairwise_auc(fm(fields[:1000]), clicks[:1000])
    for epoch in range(epochs):
        for i in range(0, fields.shape[0], 256):
            logits = fm(fields[i:i + 256])
            if legacy_loss:
                scores = torch.tensor(logits.clone().detach(), requires_grad=True)
            else:
                scores = logits
            loss = F.binary_cross_entropy_with_logits(scores, clicks[i:i + 256], pos_weight=pos_weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        auc = pairwise_auc(fm(fields[:1000]), clicks[:1000])
    unchanged = all(torch.equal(a, b) for a, b in zip(before, fm.parameters()))
    return fm, unchanged, auc0, auc


if __name__ == "__main__":
    fm, unchanged, auc0, auc = train(legacy_loss=True)
    assert all(p.grad is None for p in fm.parameters())
    assert unchanged and auc == auc0

    fm, unchanged, auc0, auc_ref = train(legacy_loss=False)
    assert all(p.grad is not None for p in fm.parameters())
    assert not unchanged and auc_ref > auc0 + 0.1, (auc0, auc_ref)
    print(f"train AUC: legacy loss {auc:.3f}, direct logits {auc_ref:.3f}")

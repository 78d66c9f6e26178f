"""
expect: GL005 27
dynamic: confirm
source: kinds check 29, kind 6

An entity linker scores each mention against the whole entity table and
then looks up the gold entities through the same max_norm embedding.
With copy=False (the default) the table is the weight itself, saved by
the matmul; the lookup then renormalises that weight in place.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EntityLinker(nn.Module):
    def __init__(self, n_entities, d_in, d, copy=False):
        super().__init__()
        self.enc = nn.Linear(d_in, d)
        self.emb = nn.Embedding(n_entities, d, max_norm=1.0)
        self.copy = copy

    def forward(self, mentions, gold_ids):
        q = self.enc(mentions)
        table = self.emb.weight.clone() if self.copy else self.emb.weight
        scores = q @ table.t()
        gold = self.emb(gold_ids)
        align = (q * gold).sum(-1)
        return scores, align


torch.manual_seed(0)
linker = EntityLinker(30, 12, 16)
mentions = torch.randn(5, 12)
gold_ids = torch.tensor([3, 7, 7, 12, 29])
scores, align = linker(mentions, gold_ids)
loss = F.cross_entropy(scores, gold_ids) - align.mean()
try:
    loss.backward()
    raise AssertionError("expected backward to fail")
except RuntimeError as e:
    msg = str(e)
assert "modified by an inplace operation" in msg, msg
print("ok:", msg.splitlines()[0][:90])

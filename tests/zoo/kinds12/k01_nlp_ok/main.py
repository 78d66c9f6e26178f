"""
expect: none
dynamic: dismiss
source: kind 1

A bag-of-embeddings review classifier gets its vocabulary and initial embedding table
from a helper that leaves grad mode off. The caller switches recording back on right
after the helper returns, so the whole forward is recorded: after a few Adam steps both
the embedding table and the output layer have .grad and have changed.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from vocab_tools import build_vocab, encode

REVIEWS = [
    ("great acting and a moving story", 1),
    ("boring plot and weak acting", 0),
    ("a moving and great film", 1),
    ("weak story boring film", 0),
]


class ReviewClassifier(nn.Module):
    def __init__(self, init_table):
        super().__init__()
        self.embed = nn.Embedding.from_pretrained(init_table.clone(), freeze=False, padding_idx=0)
        self.out = nn.Linear(init_table.shape[1], 2)

    def forward(self, ids):
        return self.out(self.embed(ids).mean(1))


def main():
    stoi, table = build_vocab([t for t, _ in REVIEWS])
    torch.set_grad_enabled(True)

    ids = torch.tensor([encode(stoi, t) for t, _ in REVIEWS])
    labels = torch.tensor([y for _, y in REVIEWS])
    model = ReviewClassifier(table)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    embed_before = model.embed.weight.clone()
    out_before = model.out.weight.clone()
    for _ in range(3):
        loss = F.cross_entropy(model(ids), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert model.embed.weight.grad is not None
    assert not torch.equal(model.embed.weight, embed_before)
    assert not torch.equal(model.out.weight, out_before)
    print("ok: embeddings and output layer both trained")


if __name__ == "__main__":
    main()

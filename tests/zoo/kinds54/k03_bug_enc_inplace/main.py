"""
expect: GL005 blocks.py:16
dynamic: confirm
source: kinds check 54, kind 2

Protein-sequence tagger: the model calls TokenMixer.encode_features (not forward) on
embedding output. That method runs a weight-normed conv on a transpose view of its input
and then adds the result into that view in place, so the conv's saved input is modified
and backward raises.
"""
import torch
import torch.nn as nn
from blocks import TokenMixer


class ResidueTagger(nn.Module):
    def __init__(self, vocab=25, dim=16, tags=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.encoder = TokenMixer(dim)
        self.head = nn.Linear(dim, tags)

    def forward(self, seq):
        x = self.embed(seq)
        return self.head(self.features(x))

    def features(self, x):
        return self.encoder.encode_features(x)


torch.manual_seed(0)
model = ResidueTagger()
seq = torch.randint(0, 25, (4, 30))
tags = torch.randint(0, 3, (4, 30))
out = model(seq)
loss = nn.functional.cross_entropy(out.reshape(-1, 3), tags.reshape(-1))
try:
    loss.backward()
    raised = False
except RuntimeError as e:
    raised = "inplace" in str(e)
assert raised, "expected in-place autograd error"
print("ok: backward raised")

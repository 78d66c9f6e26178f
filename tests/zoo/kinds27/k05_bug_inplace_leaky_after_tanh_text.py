"""
expect: GL005 26
dynamic: confirm
source: kinds check 27, kind 3

A small text encoder whose residual blocks squash a projection with tanh and
then apply a LeakyReLU built with the block's inplace flag. Both the block and
the encoder default that flag to True, so the activation overwrites the tanh
output that tanh saved for its backward, and backward raises.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class SquashBlock(nn.Module):
    def __init__(self, dim, hidden, inplace=True):
        super().__init__()
        self.proj = nn.Linear(dim, hidden)
        self.act = nn.LeakyReLU(0.1, inplace=inplace)
        self.out = nn.Linear(hidden, dim)

    def forward(self, x):
        squashed = torch.tanh(self.proj(x))
        h = self.act(squashed)
        return x + self.out(h)


class TextEncoder(nn.Module):
    def __init__(self, vocab=100, dim=24, hidden=48, depth=2, n_classes=3, inplace=True):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(
            [SquashBlock(dim, hidden, inplace=inplace) for _ in range(depth)]
        )
        self.cls = nn.Linear(dim, n_classes)

    def forward(self, ids):
        h = self.tok(ids)
        for block in self.blocks:
            h = block(h)
        return self.cls(h.mean(dim=1))


model = TextEncoder()
ids = torch.randint(0, 100, (6, 11))
labels = torch.randint(0, 3, (6,))
loss = nn.functional.cross_entropy(model(ids), labels)

try:
    loss.backward()
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err
    print("backward failed as expected:", str(err).splitlines()[0][:90])
else:
    raise AssertionError("backward should have failed")

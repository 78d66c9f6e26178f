"""
expect: none
dynamic: dismiss
source: kinds check 27, kind 3

The same text encoder with tanh-then-LeakyReLU blocks whose inplace flag
defaults to True, but the only place the model is built passes
inplace=False, which the encoder hands down to every block; the tanh output
stays intact and backward works.
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


model = TextEncoder(inplace=False)
ids = torch.randint(0, 100, (6, 11))
labels = torch.randint(0, 3, (6,))
loss = nn.functional.cross_entropy(model(ids), labels)
loss.backward()

assert all(not block.act.inplace for block in model.blocks)
assert model.blocks[0].proj.weight.grad is not None
assert torch.isfinite(model.blocks[0].proj.weight.grad).all()
print("backward ok, loss =", loss.item())

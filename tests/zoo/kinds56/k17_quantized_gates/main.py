"""
expect: GL005 quant.py:12
dynamic: confirm
source: none, invented

A gated MLP for a keyword-spotting-like task on synthetic feature vectors, prepared for low-precision
deployment: the sigmoid gates are fake-quantized to 4 levels with `FakeQuantize` from quant.py, a
custom autograd Function that rounds its input in place, declares it with `ctx.mark_dirty`, and
passes the gradient straight through.  Marking the tensor dirty is correct bookkeeping for the
Function itself, but the tensor it rounds is the output of `torch.sigmoid`, which the sigmoid node
saved for its own backward.  The first `backward()` therefore fails with "modified by an inplace
operation".  The asserts catch that error and show that quantizing a clone of the gates trains the
gate and feature layers to a high accuracy.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from quant import fake_quantize

torch.manual_seed(0)
torch.set_num_threads(1)

N_FEATS, N_WORDS = 24, 5


class GatedMLP(nn.Module):
    def __init__(self, quantize_copy):
        super().__init__()
        self.features = nn.Linear(N_FEATS, 64)
        self.gate = nn.Linear(N_FEATS, 64)
        self.out = nn.Linear(64, N_WORDS)
        self.quantize_copy = quantize_copy

    def forward(self, x):
        g = torch.sigmoid(self.gate(x))
        g = fake_quantize(g.clone() if self.quantize_copy else g, levels=4)
        return self.out(F.relu(self.features(x)) * g)


def utterances(prototypes, n):
    word = torch.randint(0, N_WORDS, (n,))
    return prototypes[word] + 0.7 * torch.randn(n, N_FEATS), word


def train(quantize_copy, steps=150):
    torch.manual_seed(0)
    prototypes = torch.randn(N_WORDS, N_FEATS)
    model = GatedMLP(quantize_copy)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(steps):
        x, y = utterances(prototypes, 64)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert model.gate.weight.grad.abs().sum() > 0
    with torch.no_grad():
        x, y = utterances(prototypes, 500)
        return (model(x).argmax(-1) == y).float().mean().item()


if __name__ == "__main__":
    try:
        train(quantize_copy=False)
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
    else:
        raise AssertionError("rounding the saved sigmoid output in place should break backward")
    acc = train(quantize_copy=True)
    assert acc > 0.9, acc
    print(f"k17: in-place fake-quant of sigmoid gates breaks backward; clone variant accuracy {acc:.2f}")

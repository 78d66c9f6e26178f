"""
expect: none
dynamic: dismiss
source: kinds check 42, kind 3

A 1-D convolutional beat classifier for ECG-like traces. BeatNet's constructor
takes the residual block class as a parameter with default FusedSkip, whose
forward adds into its input in place (x += ...), and BeatNet feeds its first
block from torch.tanh, whose output tanh's backward needs - so the default would
break backward. But every construction in this program (a narrow and a wide
model, plus the one used for the gradient check) passes block=SkipConv, which
adds out of place. The asserts show backward gives gradients to every parameter
and both models' losses fall substantially.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FusedSkip(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, 5, padding=2)

    def forward(self, x):
        x += self.conv(x)
        return x


class SkipConv(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, 5, padding=2)

    def forward(self, x):
        return x + F.gelu(self.conv(x))


class BeatNet(nn.Module):
    def __init__(self, channels=8, depth=2, classes=3, block=FusedSkip):
        super().__init__()
        self.stem = nn.Conv1d(1, channels, 7, padding=3)
        self.stack = nn.Sequential(*[block(channels) for _ in range(depth)])
        self.head = nn.Linear(channels, classes)

    def forward(self, trace):
        feats = torch.tanh(self.stem(trace))
        feats = self.stack(feats)
        return self.head(feats.mean(dim=2))


def synthetic_beats(gen, n=96, length=64):
    t = torch.linspace(0, 1, length)
    labels = torch.randint(0, 3, (n,), generator=gen)
    freq = (labels.float() + 1.0).unsqueeze(1) * 3.0
    traces = torch.sin(2 * torch.pi * freq * t) + 0.3 * torch.randn(n, length, generator=gen)
    return traces.unsqueeze(1), labels


def train(model, traces, labels, steps=80):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    first = last = None
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(traces), labels)
        loss.backward()
        opt.step()
        first = loss.item() if first is None else first
        last = loss.item()
    return first, last


def main():
    torch.manual_seed(21)
    traces, labels = synthetic_beats(torch.Generator().manual_seed(22))

    probe = BeatNet(block=SkipConv)
    F.cross_entropy(probe(traces), labels).backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in probe.parameters())

    for name, model in [("narrow", BeatNet(channels=8, block=SkipConv)),
                        ("wide", BeatNet(channels=16, depth=3, block=SkipConv))]:
        first, last = train(model, traces, labels)
        assert last < 0.5 * first, (name, first, last)
        print(f"{name}: loss {first:.3f} -> {last:.3f}")


if __name__ == "__main__":
    main()

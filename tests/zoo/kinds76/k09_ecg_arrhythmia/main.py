"""
expect: none
dynamic: dismiss
source: none, invented

Medical / ECG arrhythmia detection. The training script imports the `ecg` package:
`ecg/__init__.py` imports `ecg.filters`, whose top level switches recording off with
`torch.set_grad_enabled(False)` while it designs the fixed FIR taps, but saves the
previous mode and restores it in a `finally`; `ecg/export.py` also calls
`torch.set_grad_enabled(False)`, but only under `if __name__ == "__main__":` (when
run as the export CLI), so importing it changes nothing. Grad mode is therefore still
on when the script runs its training steps, and the CNN trains. The asserts check
grad mode after the imports, that the first training step gives gradients to every
parameter, and that loss falls and accuracy rises over training.
"""
import math

import torch
import torch.nn.functional as F

import ecg
from ecg.export import export_torchscript  # noqa: F401
from ecg.model import BeatCNN


def synth_beats(n=192, samples=256, seed=0):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, 3, (n,), generator=g)
    t = torch.arange(samples).float() / ecg.filters.SAMPLE_RATE
    rate = torch.tensor([1.0, 2.2, 3.6])[labels]  # normal, tachy, flutter-like
    signal = torch.sin(2 * math.pi * rate[:, None] * t[None] * 3)
    signal = signal + 0.3 * torch.randn(n, samples, generator=g) + 0.5  # baseline offset
    return signal, labels


def train_step(model, optimizer, signal, labels):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(signal), labels)
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    assert torch.is_grad_enabled()
    torch.manual_seed(0)
    signal, labels = synth_beats()
    model = BeatCNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

    first = train_step(model, optimizer, signal, labels)
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
    losses = [first] + [train_step(model, optimizer, signal, labels) for _ in range(60)]
    acc = (model(signal).argmax(1) == labels).float().mean().item()
    print(f"loss {losses[0]:.3f} -> {losses[-1]:.3f}, accuracy {acc:.3f}")
    assert losses[-1] < 0.5 * losses[0]
    assert acc > 0.8
    print("OK")


if __name__ == "__main__":
    main()

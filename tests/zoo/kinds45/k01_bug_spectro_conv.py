"""
expect: GL005 33
dynamic: confirm
source: kinds check 45, kind 1

A small spectrogram tagger: the log-mel features come out of a learned
front-end, are bound to a second name `frames` for the conv head, and then the
original name is bias-corrected in place for a residual energy term. The conv
saved `frames` (same storage) for its weight gradient, so backward fails.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.front = nn.Linear(40, 40)
        self.conv = nn.Conv1d(40, 16, kernel_size=3, padding=1)
        self.head = nn.Linear(16, 5)
        self.offset = nn.Parameter(torch.zeros(40, 1))

    def forward(self, mel):
        # mel: (batch, time, 40)
        features = self.front(mel).transpose(1, 2)  # (batch, 40, time)
        frames = features
        hidden = self.conv(frames)
        logits = self.head(hidden.mean(dim=2))
        energy = features.detach().pow(2).mean()
        # bias-correct the features for the residual energy term
        features += self.offset
        residual = features.mean()
        return logits, residual, energy


model = Tagger()
mel = torch.randn(8, 50, 40)
labels = torch.randint(0, 5, (8,))
logits, residual, energy = model(mel)
loss = nn.functional.cross_entropy(logits, labels) + 0.1 * residual

try:
    loss.backward()
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err
    print("caught:", str(err).splitlines()[0][:100])
else:
    raise AssertionError("expected the in-place edit to break backward")

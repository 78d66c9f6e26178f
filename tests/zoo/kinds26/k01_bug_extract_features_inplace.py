"""
expect: GL005 28
dynamic: confirm
source: kinds check 26, kind 1

A 1-D sensor classifier whose helper method extract_features runs a conv over
its input and then halves that same input in place with mul_. The conv saved
the input for its weight gradient, so backward finds it modified and fails.
"""
import torch
import torch.nn as nn


class SensorNet(nn.Module):
    def __init__(self, channels=3, hidden=8, classes=4):
        super().__init__()
        self.stem = nn.Conv1d(channels, hidden, kernel_size=3, padding=1)
        self.conv = nn.Conv1d(hidden, hidden, kernel_size=5, padding=2)
        self.head = nn.Linear(hidden, classes)

    def forward(self, raw):
        x = self.stem(raw)
        feats = self.extract_features(x)
        return self.head(feats.mean(dim=2))

    def extract_features(self, x):
        h = self.conv(x)
        x.mul_(0.5)
        return h + x


torch.manual_seed(0)
model = SensorNet()
raw = torch.randn(6, 3, 20)
labels = torch.randint(0, 4, (6,))
loss = nn.functional.cross_entropy(model(raw), labels)

try:
    loss.backward()
except RuntimeError as err:
    message = str(err)
else:
    message = ""
assert "modified by an inplace operation" in message, message
print("ok: backward failed as expected")

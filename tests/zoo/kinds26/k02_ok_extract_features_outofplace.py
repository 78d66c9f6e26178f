"""
expect: none
dynamic: dismiss
source: kinds check 26, kind 1

Same sensor classifier, but extract_features scales its input out of place
(x = x * 0.5), so the tensor the conv saved is left untouched and backward
runs cleanly, filling every parameter's gradient.
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
        x = x * 0.5
        return h + x


torch.manual_seed(0)
model = SensorNet()
raw = torch.randn(6, 3, 20)
labels = torch.randint(0, 4, (6,))
loss = nn.functional.cross_entropy(model(raw), labels)
loss.backward()
for name, p in model.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
print("ok: backward ran, all grads present")

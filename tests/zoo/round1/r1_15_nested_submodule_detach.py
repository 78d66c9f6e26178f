"""expect: GL001 19
dynamic: confirm
source: https://github.com/NVlabs/DG-Net/issues/59

A re-identification model nests an appearance encoder whose forward ends with `f = f.detach()` (the line questioned in the linked issue). The outer model calls it from its own forward, and the optimizer holds the outer model's parameters, so the encoder's weights are meant to train; backward stops at the detach and their .grad stays None.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AppearanceEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(24, 48), nn.ReLU(), nn.Linear(48, 16))

    def forward(self, x):
        f = self.body(x)
        f = f.detach()
        return f


class ReIDNet(nn.Module):
    def __init__(self, ids=10):
        super().__init__()
        self.appearance = AppearanceEncoder()
        self.classifier = nn.Linear(16, ids)

    def forward(self, x):
        return self.classifier(self.appearance(x))


torch.manual_seed(0)
model = ReIDNet()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
x, ids = torch.randn(12, 24), torch.randint(0, 10, (12,))
for _ in range(3):
    loss = F.cross_entropy(model(x), ids)
    opt.zero_grad()
    loss.backward()
    opt.step()

print("appearance encoder grad:", model.appearance.body[0].weight.grad)
print("classifier grad norm:", model.classifier.weight.grad.norm().item())

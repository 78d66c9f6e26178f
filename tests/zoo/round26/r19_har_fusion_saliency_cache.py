"""
expect: GL002 43
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/1760

The reporter stored an intermediate as self.y inside forward() and found y.grad was
None after backward, but that rebuilding it as Variable(torch.Tensor(x.data.numpy()),
requires_grad=...) "fixed" it. The rebuilt tensor is a fresh leaf: it gets a .grad
because nothing before it is connected any more. Here a wearable activity-recognition
model fuses accelerometer and gyroscope encoders and caches the fused vector the same
way so a saliency tool can read fused.grad; the classifier trains, both sensor encoders
silently stay at their initial weights. The asserts show the encoders get no gradient
while the cached saliency is filled, and that retain_grad() on the real tensor keeps both.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
WIN, N_ACT = 50, 4


class SensorEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(3, 16, 5, padding=2)

    def forward(self, x):
        return F.relu(self.conv(x)).mean(-1)


class FusionHAR(nn.Module):
    def __init__(self):
        super().__init__()
        self.acc = SensorEncoder()
        self.gyro = SensorEncoder()
        self.head = nn.Linear(32, N_ACT)
        self.fused = None

    def forward(self, acc, gyro):
        fused = torch.cat([self.acc(acc), self.gyro(gyro)], -1)
        self.fused = torch.tensor(fused.detach().numpy(), requires_grad=True)
        return self.head(self.fused)

    def channel_saliency(self):
        return self.fused.grad.abs().mean(0)


def batch(n=32):
    y = torch.randint(0, N_ACT, (n,))
    acc = torch.randn(n, 3, WIN) + y[:, None, None].float() * 0.5
    gyro = torch.randn(n, 3, WIN) - y[:, None, None].float() * 0.3
    return acc, gyro, y


model = FusionHAR()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
enc0 = [p.detach().clone() for p in list(model.acc.parameters()) + list(model.gyro.parameters())]
for _ in range(10):
    acc, gyro, y = batch()
    opt.zero_grad()
    F.cross_entropy(model(acc, gyro), y).backward()
    saliency = model.channel_saliency()
    opt.step()
assert saliency.shape == (32,) and saliency.sum() > 0
assert all(p.grad is None for p in model.acc.parameters())
encs = list(model.acc.parameters()) + list(model.gyro.parameters())
assert all(torch.equal(a, b) for a, b in zip(enc0, encs))
assert model.head.weight.grad.abs().sum() > 0


class FusionHARRetain(FusionHAR):
    def forward(self, acc, gyro):
        self.fused = torch.cat([self.acc(acc), self.gyro(gyro)], -1)
        self.fused.retain_grad()
        return self.head(self.fused)


fixed = FusionHARRetain()
fixed.load_state_dict(model.state_dict())
acc, gyro, y = batch()
F.cross_entropy(fixed(acc, gyro), y).backward()
assert fixed.channel_saliency().sum() > 0
assert all(p.grad.abs().sum() > 0 for p in fixed.acc.parameters())
print("ok: numpy round-trip cache leaves both sensor encoders untrained")

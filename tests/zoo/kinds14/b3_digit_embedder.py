"""
expect: none
dynamic: dismiss
source: kind B

A digit-image embedding network whose `forward` calls a helper `_flatten_unit` defined
below it plus a `@staticmethod` temperature scaler; both only reshape and L2-normalise
and keep autograd history. The asserts show the conv layer and the projection both receive
gradients and their weights change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DigitEmbedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 6, 3, padding=1)
        self.proj = nn.Linear(6 * 7 * 7, 16)
        self.prototypes = nn.Parameter(torch.randn(10, 16))

    def forward(self, digits):
        fmap = F.max_pool2d(torch.relu(self.conv(digits)), 4)
        emb = self._flatten_unit(self.proj(fmap.flatten(1)))
        protos = F.normalize(self.prototypes, dim=1)
        return DigitEmbedder.scale(emb @ protos.t())

    @staticmethod
    def scale(logits):
        return logits * 10.0

    def _flatten_unit(self, z):
        return F.normalize(z.reshape(z.shape[0], -1), dim=1)


torch.manual_seed(0)
model = DigitEmbedder()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
digits = torch.randn(12, 1, 28, 28)
labels = torch.randint(0, 10, (12,))
before = {n: p.detach().clone() for n, p in model.named_parameters()}
for _ in range(3):
    opt.zero_grad()
    F.cross_entropy(model(digits), labels).backward()
    opt.step()
for name, p in model.named_parameters():
    assert p.grad is not None, name
    assert not torch.equal(p, before[name]), name
print("b3 ok")

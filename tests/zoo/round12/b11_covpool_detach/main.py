"""
expect: GL003 covpool.py:26
dynamic: confirm
source: https://github.com/jiangtaoxie/fast-MPN-COV/issues/15

The reporter got an error at loss.backward() with the MPN-COV covariance-pooling
ResNet, "adjusted the code with detach()" so it would run, and then saw loss and
accuracy stay flat epoch after epoch. This program rebuilds covariance pooling
with a Newton-Schulz square root in covpool.py, where the pooled output is
detached and switched back to requires_grad so backward no longer complains. The
asserts show the convolutional backbone in front of the pooling gets no gradient
and never changes (only the leaf made by requires_grad_ and the classifier do),
while the same network without that line trains the backbone.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from covpool import CovPool


class CovNet(nn.Module):
    def __init__(self, ch=6, n_cls=4):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv1d(3, ch, 3, padding=1), nn.ReLU())
        self.pool = CovPool()
        self.fc = nn.Linear(ch * (ch + 1) // 2, n_cls)

    def forward(self, x):
        return self.fc(self.pool(self.backbone(x)))


torch.manual_seed(0)
x, y = torch.randn(16, 3, 20), torch.randint(0, 4, (16,))
net = CovNet()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
conv0 = net.backbone[0].weight.detach().clone()
for _ in range(5):
    opt.zero_grad()
    F.cross_entropy(net(x), y).backward()
    opt.step()
assert net.backbone[0].weight.grad is None
assert torch.equal(conv0, net.backbone[0].weight)


class PlainPool(CovPool):
    def forward(self, feats):
        centered = feats - feats.mean(dim=2, keepdim=True)
        cov = centered @ centered.transpose(1, 2) / feats.shape[2]
        iu = torch.triu_indices(cov.shape[1], cov.shape[1])
        return cov[:, iu[0], iu[1]]


ref = CovNet()
ref.pool = PlainPool()
F.cross_entropy(ref(x), y).backward()
assert ref.backbone[0].weight.grad is not None and ref.backbone[0].weight.grad.abs().sum() > 0
print("backbone grad with detached pooling:", net.backbone[0].weight.grad)

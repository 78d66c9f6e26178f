"""
expect: none
dynamic: dismiss
source: https://github.com/developer0hye/SKNet-PyTorch/issues/6

Selective-kernel convolution (SKNet) with every activation switched to
`nn.ReLU(inplace=True)` to save memory, as done in response to the issue. Each
ReLU overwrites the output of a BatchNorm; BatchNorm's backward needs its
input and statistics, not its output, and nothing else saved that tensor, so
the in-place edits are safe (the ReLU then saves its own output). Asserted:
training runs, and the gradients equal those of the same network with
inplace=False.
"""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)


class SKConv(nn.Module):
    def __init__(self, ch=8, branches=2, reduction=2, inplace=True):
        super().__init__()
        self.convs = nn.ModuleList(
            nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1 + i, dilation=1 + i, bias=False),
                          nn.BatchNorm2d(ch), nn.ReLU(inplace=inplace))
            for i in range(branches))
        d = ch // reduction
        self.fc = nn.Sequential(nn.Conv2d(ch, d, 1, bias=False), nn.BatchNorm2d(d), nn.ReLU(inplace=inplace))
        self.fcs = nn.ModuleList(nn.Conv2d(d, ch, 1) for _ in range(branches))
        self.softmax = nn.Softmax(dim=1)

    def forward(self, x):
        feats = torch.stack([conv(x) for conv in self.convs], dim=1)
        u = feats.sum(dim=1)
        s = u.mean(dim=(2, 3), keepdim=True)
        z = self.fc(s)
        attn = self.softmax(torch.stack([fc(z) for fc in self.fcs], dim=1))
        return (feats * attn).sum(dim=1)


net = nn.Sequential(SKConv(inplace=True), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 3))
ref = copy.deepcopy(net)
for m in ref.modules():
    if isinstance(m, nn.ReLU):
        m.inplace = False

x = torch.randn(4, 8, 6, 6)
y = torch.tensor([0, 1, 2, 1])
nn.functional.cross_entropy(net(x), y).backward()
nn.functional.cross_entropy(ref(x), y).backward()
for a, b in zip(net.parameters(), ref.parameters()):
    assert torch.allclose(a.grad, b.grad, atol=1e-6), "in-place ReLU changed a gradient"

opt = torch.optim.SGD(net.parameters(), lr=0.1)
losses = []
for _ in range(20):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0], losses
print("OK: SK block with in-place ReLUs trains and matches the out-of-place gradients")

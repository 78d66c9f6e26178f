"""
expect: GL005 32
dynamic: confirm
source: https://github.com/Jinfu-pku/GMNet/issues/3

The report asks how to get past "one of the variables needed for gradient
computation has been modified by an inplace operation" caused by nn.ReLU(inplace=True)
in an RGB-thermal segmentation net. Here a fusion block gates RGB and thermal
features with a sigmoid map, then passes that same map through a shared in-place
ReLU for a refinement branch; the ReLU overwrites the sigmoid output that sigmoid
and the gating multiply saved. The asserts show backward fails with the version
error and that the same block with inplace=False trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class GatedFusion(nn.Module):
    def __init__(self, c, inplace=True):
        super().__init__()
        self.gate = nn.Conv2d(2 * c, c, 1)
        self.refine = nn.Conv2d(c, c, 3, padding=1)
        self.act = nn.ReLU(inplace=inplace)

    def forward(self, rgb, thermal):
        att = torch.sigmoid(self.gate(torch.cat([rgb, thermal], 1)))
        fused = rgb * att + thermal * (1.0 - att)
        boost = self.refine(self.act(att))
        return fused + boost


class TinySegNet(nn.Module):
    def __init__(self, c=8, n_cls=3, inplace=True):
        super().__init__()
        self.rgb = nn.Conv2d(3, c, 3, padding=1)
        self.th = nn.Conv2d(1, c, 3, padding=1)
        self.fuse = GatedFusion(c, inplace=inplace)
        self.cls = nn.Conv2d(c, n_cls, 1)

    def forward(self, img, thermal):
        return self.cls(self.fuse(F.relu(self.rgb(img)), F.relu(self.th(thermal))))


img = torch.randn(2, 3, 16, 16)
thermal = torch.randn(2, 1, 16, 16)
mask = torch.randint(0, 3, (2, 16, 16))

net = TinySegNet()
loss = F.cross_entropy(net(img, thermal), mask)
raised = False
try:
    loss.backward()
except RuntimeError as e:
    raised = "modified by an inplace operation" in str(e)
assert raised

ok_net = TinySegNet(inplace=False)
ok_net.load_state_dict(net.state_dict())
F.cross_entropy(ok_net(img, thermal), mask).backward()
assert ok_net.fuse.gate.weight.grad.abs().sum() > 0
print("ok")

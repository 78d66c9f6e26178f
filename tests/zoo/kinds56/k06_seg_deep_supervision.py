"""
expect: none
dynamic: dismiss
source: none, invented

A small encoder-decoder segments synthetic images of discs (foreground/background) with deep
supervision: a `FeatureTap` object registers forward hooks built by its `capture` method on two
encoder stages and keeps their outputs, graph attached, so auxiliary 1x1 heads can be trained on
them.  A separate `ActivationLog` hook stores `tuple(map(torch.Tensor.detach, ...))` copies of the
encoder stage outputs, but those are only turned into per-stage RMS numbers for monitoring.  Nothing
that feeds the loss is detached.  The asserts check that the auxiliary loss alone sends gradient into
the first encoder stage, that the monitoring log fills up, and that the segmentation IoU is high.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class FeatureTap:
    def __init__(self):
        self.store = {}
        self.handles = []

    def capture(self, name):
        def _hook(module, inputs, output):
            self.store[name] = output
        return _hook

    def attach(self, modules):
        for name, mod in modules.items():
            self.handles.append(mod.register_forward_hook(self.capture(name)))


class ActivationLog:
    def __init__(self):
        self.history = []

    def __call__(self, module, inputs, outputs):
        self.history.append(tuple(map(torch.Tensor.detach, outputs)))

    def rms(self):
        last = self.history[-1]
        return [t.pow(2).mean().sqrt().item() for t in last]


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.stage1 = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU())
        self.stage2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())

    def forward(self, x):
        s1 = self.stage1(x)
        s2 = self.stage2(s1)
        return s1, s2


class SegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.up = nn.ConvTranspose2d(16, 8, 2, stride=2)
        self.fuse = nn.Conv2d(16, 8, 3, padding=1)
        self.classifier = nn.Conv2d(8, 2, 1)

    def forward(self, x):
        s1, s2 = self.encoder(x)
        h = F.relu(self.fuse(torch.cat([s1, self.up(s2)], 1)))
        return self.classifier(h)


def discs(n, size=24):
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    cy, cx = torch.randint(6, size - 6, (2, n, 1, 1))
    r = torch.randint(3, 6, (n, 1, 1))
    mask = ((yy - cy) ** 2 + (xx - cx) ** 2 <= r ** 2).long()
    img = mask.float() + 0.4 * torch.randn(n, size, size)
    return img.unsqueeze(1), mask


model = SegNet()
tap = FeatureTap()
tap.attach({"stage1": model.encoder.stage1, "stage2": model.encoder.stage2})
monitor = ActivationLog()
model.encoder.register_forward_hook(monitor)
aux_heads = nn.ModuleDict({"stage1": nn.Conv2d(8, 2, 1), "stage2": nn.Conv2d(16, 2, 1)})
opt = torch.optim.Adam(list(model.parameters()) + list(aux_heads.parameters()), lr=3e-3)

for step in range(120):
    img, mask = discs(32)
    logits = model(img)
    aux = 0.0
    for name, head in aux_heads.items():
        a = head(tap.store[name])
        a = F.interpolate(a, size=mask.shape[-2:], mode="bilinear", align_corners=False)
        aux = aux + F.cross_entropy(a, mask)
    if step == 0:
        g = torch.autograd.grad(aux, model.encoder.stage1[0].weight, retain_graph=True)[0]
        assert g.abs().sum() > 0
    loss = F.cross_entropy(logits, mask) + 0.3 * aux
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 40 == 0:
        stage_rms = monitor.rms()

assert len(monitor.history) == 120 and len(stage_rms) == 2
with torch.no_grad():
    img, mask = discs(200)
    pred = model(img).argmax(1)
    iou = ((pred == 1) & (mask == 1)).sum().item() / ((pred == 1) | (mask == 1)).sum().item()
assert iou > 0.7, iou
print(f"k06: deep supervision through attached taps; IoU {iou:.2f}")

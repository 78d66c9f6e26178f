"""
expect: GL005 48
dynamic: confirm
source: https://github.com/open-mmlab/mmsegmentation/pull/1103

A ViT-style segmenter: patch features from a single-scale backbone, a multi-level neck that resamples
them into a 4-level pyramid, and an UPerNet-style decode head. The head runs a conv-BN-ReLU lateral on
each level and then builds the top-down path with `laterals[i - 1] += resize(laterals[i])`. Each
lateral is the output of a ReLU, which autograd saves for the ReLU gradient, so the in-place top-down
sum invalidates it and backward fails with "modified by an inplace operation" (the error the PR
reports for vit+mln+upernet and removes by writing the sum out of place). The asserts show the error
and that the out-of-place head trains, with gradients reaching the lateral convs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvBNReLU(nn.Sequential):
    def __init__(self, cin, cout, k=1):
        super().__init__(nn.Conv2d(cin, cout, k, padding=k // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU())


class MultiLevelNeck(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.proj = nn.ModuleList(nn.Conv2d(ch, ch, 1) for _ in range(4))
        self.scales = [4.0, 2.0, 1.0, 0.5]

    def forward(self, x):
        return [F.interpolate(p(x), scale_factor=s, mode="bilinear", align_corners=False)
                for p, s in zip(self.proj, self.scales)]


class UPerHeadLite(nn.Module):
    def __init__(self, ch, num_classes, inplace_topdown):
        super().__init__()
        self.inplace_topdown = inplace_topdown
        self.lateral_convs = nn.ModuleList(ConvBNReLU(ch, 16) for _ in range(4))
        self.fpn_convs = nn.ModuleList(ConvBNReLU(16, 16, 3) for _ in range(3))
        self.cls = nn.Conv2d(16 * 4, num_classes, 1)

    def forward(self, feats):
        laterals = [conv(f) for conv, f in zip(self.lateral_convs, feats)]
        for i in range(len(laterals) - 1, 0, -1):
            up = F.interpolate(laterals[i], size=laterals[i - 1].shape[2:], mode="bilinear", align_corners=False)
            if self.inplace_topdown:
                laterals[i - 1] += up
            else:
                laterals[i - 1] = laterals[i - 1] + up
        outs = [self.fpn_convs[i](laterals[i]) for i in range(3)] + [laterals[3]]
        size = outs[0].shape[2:]
        outs = [F.interpolate(o, size=size, mode="bilinear", align_corners=False) for o in outs]
        return self.cls(torch.cat(outs, dim=1))


class Segmenter(nn.Module):
    def __init__(self, inplace_topdown):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, 24, 4, stride=4)
        self.blocks = nn.Sequential(nn.Conv2d(24, 24, 1), nn.GELU(), nn.Conv2d(24, 24, 1))
        self.neck = MultiLevelNeck(24)
        self.head = UPerHeadLite(24, 4, inplace_topdown)

    def forward(self, img):
        tokens = self.blocks(self.patch_embed(img))
        logits = self.head(self.neck(tokens))
        return F.interpolate(logits, size=img.shape[2:], mode="bilinear", align_corners=False)


def train(model, img, seg, steps):
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(img), seg)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


torch.manual_seed(0)
torch.set_num_threads(1)
img = torch.randn(2, 3, 32, 32)
seg = torch.randint(0, 4, (2, 32, 32))

torch.manual_seed(1)
try:
    train(Segmenter(inplace_topdown=True), img, seg, 1)
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "the in-place top-down sum should break the lateral ReLU backward"

torch.manual_seed(1)
model = Segmenter(inplace_topdown=False)
losses = train(model, img, seg, 20)
assert model.head.lateral_convs[0][0].weight.grad.abs().sum() > 0
assert losses[-1] < losses[0]
print("in-place top-down raised; out-of-place loss %.3f -> %.3f" % (losses[0], losses[-1]))

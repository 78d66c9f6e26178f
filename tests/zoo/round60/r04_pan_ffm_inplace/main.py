"""
expect: GL005 neck.py:50
dynamic: confirm
source: https://github.com/BADBADBADBOY/pytorchOCR/blob/b1f9456bbecdac822c0c954fd6bc340080af2b69/ptocr/model/head/det_FPEM_FFM_Head.py

pytorchOCR's PAN text detector runs two FPEM blocks and then fuses their pyramids in an FFM module
whose forward accumulates the later pyramids into the first one with "+=". The first pyramid is
made of DWBlock outputs, and each DWBlock ends with a ReLU, which keeps its output for the backward
pass. Adding into those maps in place bumps their version, so backward stops with "one of the
variables needed for gradient computation has been modified by an inplace operation ... output 0
of Relu". neck.py reproduces the FPEM/FFM neck at toy size (the in-place fusion sits in
the module), main.py trains it on synthetic document pages whose target is a text-line mask. The
asserts catch that RuntimeError on the first backward with the original fusion and show that the
out-of-place fusion trains (the segmentation loss drops) with the same network.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from neck import FFM, FFMOutOfPlace, FPEM_FFM_Head

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyBackbone(nn.Module):
    def __init__(self):
        super().__init__()
        chans = [1, 8, 12, 16, 16]
        self.stages = nn.ModuleList(
            [nn.Sequential(nn.Conv2d(chans[i], chans[i + 1], 3, 2, 1), nn.ReLU()) for i in range(4)])
        self.out_channels = chans[1:]

    def forward(self, x):
        feats = []
        for s in self.stages:
            x = s(x)
            feats.append(x)
        return feats


class TextDetector(nn.Module):
    def __init__(self, fuse):
        super().__init__()
        self.backbone = TinyBackbone()
        self.head = FPEM_FFM_Head(self.backbone.out_channels, fuse=fuse)

    def forward(self, x):
        return self.head(self.backbone(x))


def make_pages(n=16, size=32):
    imgs = torch.rand(n, 1, size, size) * 0.2
    masks = torch.zeros(n, 1, size // 2, size // 2)
    for i in range(n):
        for _ in range(3):
            r = torch.randint(0, size // 2 - 2, (1,)).item()
            c = torch.randint(0, size // 4, (1,)).item()
            w = torch.randint(4, size // 4, (1,)).item()
            masks[i, 0, r:r + 2, c:c + w] = 1.0
            imgs[i, 0, 2 * r:2 * r + 4, 2 * c:2 * c + 2 * w] += 0.8
    return imgs, masks


imgs, masks = make_pages()


def train(fuse, steps):
    torch.manual_seed(1)
    model = TextDetector(fuse)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        logits = model(imgs)
        loss = F.binary_cross_entropy_with_logits(logits, masks)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


try:
    train(FFM, steps=1)
    raise AssertionError("expected the in-place fusion to break backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err

losses = train(FFMOutOfPlace, steps=60)
assert losses[-1] < 0.6 * losses[0], (losses[0], losses[-1])
print("ok: in-place FFM breaks backward; out-of-place fusion trains", round(losses[0], 3), "->", round(losses[-1], 3))

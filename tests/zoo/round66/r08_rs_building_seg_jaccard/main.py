"""
expect: GL003 losses.py:13
dynamic: confirm
source: https://github.com/Way-Yuhao/Satellite-Debris-UNet/blob/7b93e61b99473df62192ba182241589785d4193e/train.py

Remote sensing segmentation: a small U-Net-like network segments building footprints in
aerial image tiles (the Inria Aerial Image Labeling setting). The loss helper
(losses.py, `compute_loss`) adds an IoU term computed with a Jaccard metric object
(metrics.py). The metric thresholds the probabilities, so its value has no grad_fn and
`backward` on it would fail with "element 0 of tensors does not require grad"; the code
silences that with `iou_loss.requires_grad = True`. The flag turns the metric value into a
fresh leaf: `bce + iou` backpropagates, but the IoU part contributes nothing to any
parameter, and the network is trained by BCE alone while the logged loss suggests
otherwise. The asserts show the IoU value is a grad-less leaf, that every parameter's
gradient of the total loss equals the gradient of BCE alone, and that the fixed soft
Jaccard loss changes the gradients; a run trained with the buggy loss ends with weights
identical to a BCE-only run, while the soft Jaccard run follows its own path and trains.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import compute_loss, compute_loss_soft
from metrics import JaccardIndex

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyUNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ReLU())
        self.enc2 = nn.Sequential(nn.Conv2d(ch, 2 * ch, 3, padding=1), nn.ReLU())
        self.dec = nn.Sequential(nn.Conv2d(3 * ch, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, 1, 1))

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        up = F.interpolate(e2, scale_factor=2, mode="nearest")
        return torch.sigmoid(self.dec(torch.cat([e1, up], 1)))


def make_tiles(n=16, size=16):
    imgs = torch.rand(n, 3, size, size) * 0.3
    masks = torch.zeros(n, 1, size, size)
    for i in range(n):
        for _ in range(2):
            r, c = torch.randint(0, size - 5, (2,))
            h, w = torch.randint(2, 5, (2,))
            masks[i, :, r:r + h, c:c + w] = 1.0
            imgs[i, :, r:r + h, c:c + w] += torch.tensor([0.35, 0.2, 0.1]).view(3, 1, 1)
    return imgs, masks


def grads_of(net, loss):
    net.zero_grad()
    loss.backward()
    return [p.grad.clone() for p in net.parameters()]


def train(loss_fn, imgs, masks, steps=150):
    torch.manual_seed(3)
    net = TinyUNet()
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        loss_fn(net(imgs), masks).backward()
        opt.step()
    return net


def soft_iou(net, imgs, masks):
    with torch.no_grad():
        p = net(imgs)
        return ((p * masks).sum() / (p + masks - p * masks).sum()).item()


def main():
    imgs, masks = make_tiles()
    net = TinyUNet()

    out = net(imgs)
    iou_term = 1 - JaccardIndex()(out, masks.type(torch.int8))
    assert iou_term.grad_fn is None and not iou_term.requires_grad

    g_total = grads_of(net, compute_loss(net(imgs), masks))
    g_bce = grads_of(net, nn.BCELoss()(net(imgs), masks))
    assert all(torch.allclose(a, b) for a, b in zip(g_total, g_bce))  # IoU term adds nothing

    g_soft = grads_of(net, compute_loss_soft(net(imgs), masks))
    assert any(not torch.allclose(a, b) for a, b in zip(g_soft, g_bce))

    net_buggy = train(compute_loss, imgs, masks)
    net_bce = train(lambda o, m: nn.BCELoss()(o, m), imgs, masks)
    net_fixed = train(compute_loss_soft, imgs, masks)
    # training with the "IoU" term is bit-for-bit training with BCE alone
    assert all(torch.equal(a, b) for a, b in zip(net_buggy.parameters(), net_bce.parameters()))
    torch.manual_seed(3)
    s_init = soft_iou(TinyUNet(), imgs, masks)
    s_bce, s_fixed = soft_iou(net_bce, imgs, masks), soft_iou(net_fixed, imgs, masks)
    print("soft IoU: init %.3f, metric+requires_grad (== BCE only) %.3f, with soft Jaccard term %.3f"
          % (s_init, s_bce, s_fixed))
    assert not all(torch.equal(a, b) for a, b in zip(net_fixed.parameters(), net_bce.parameters()))
    assert s_fixed > s_init + 0.3


if __name__ == "__main__":
    main()

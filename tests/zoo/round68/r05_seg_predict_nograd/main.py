"""
expect: GL001 main.py:49
dynamic: confirm
source: https://github.com/qubvel-org/segmentation_models.pytorch/issues/365

Semantic segmentation used as a task loss. A frozen segmentation network (with the
smp-style API whose predict() is decorated with @torch.no_grad()) scores images produced
by an enhancement network, so that the enhancer is trained both to match the clean
image and to keep the image segmentable. TaskAwareLoss calls seg_model.predict() on
the enhanced image; predict runs under no_grad, so its logits carry no graph back to
the enhancer (the issue reports exactly this: predict() outputs have requires_grad=False
and gradient-based tools then fail). The segmentation term is added to the loss but
contributes nothing: the enhancer's gradient equals the gradient of the L1 term alone.
The asserts show that, and that calling the model's forward (with its weights frozen)
makes the term reach the enhancer and lowers the segmentation loss of enhanced images.
"""
import torch
from torch import nn
import torch.nn.functional as F

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from segmodel import SegmentationModel

torch.manual_seed(0)
torch.set_num_threads(1)


class Enhancer(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 3, padding=1))

    def forward(self, x):
        return x + self.net(x)


class TaskAwareLoss(nn.Module):
    def __init__(self, seg_model, seg_weight=1.0, use_predict=True):
        super().__init__()
        self.seg_model = seg_model
        self.seg_weight = seg_weight
        self.use_predict = use_predict

    def segmentation_term(self, enhanced, mask):
        if self.use_predict:
            seg_logits = self.seg_model.predict(enhanced)
        else:
            seg_logits = self.seg_model(enhanced)
        return F.cross_entropy(seg_logits, mask)

    def forward(self, enhanced, clean, mask):
        l1 = F.l1_loss(enhanced, clean)
        seg = self.segmentation_term(enhanced, mask)
        return l1 + self.seg_weight * seg, l1, seg


def make_data(seg_model, n=8):
    clean = torch.randn(n, 3, 16, 16)
    with torch.no_grad():
        mask = seg_model(clean).argmax(1)
    degraded = clean + 0.8 * torch.randn_like(clean)
    return degraded, clean, mask


def enhancer_grads(enhancer, loss):
    enhancer.zero_grad()
    loss.backward(retain_graph=True)
    return [p.grad.clone() for p in enhancer.parameters()]


def run(use_predict, steps=150):
    torch.manual_seed(1)
    seg_model = SegmentationModel()
    with torch.no_grad():
        seg_model.segmentation_head.weight.mul_(40.0)  # a confident, "pretrained" head
    for p in seg_model.parameters():
        p.requires_grad_(False)
    seg_model.eval()
    enhancer = Enhancer()
    criterion = TaskAwareLoss(seg_model, seg_weight=2.0, use_predict=use_predict)
    degraded, clean, mask = make_data(seg_model)

    total, l1, seg = criterion(enhancer(degraded), clean, mask)
    g_total = enhancer_grads(enhancer, total)
    g_l1 = enhancer_grads(enhancer, l1)
    same = all(torch.allclose(a, b) for a, b in zip(g_total, g_l1))

    opt = torch.optim.Adam(enhancer.parameters(), lr=1e-2)
    seg_start = seg.item()
    for _ in range(steps):
        total, l1, seg = criterion(enhancer(degraded), clean, mask)
        opt.zero_grad()
        total.backward()
        opt.step()
    return same, seg.requires_grad, seg_start, seg.item()


def main():
    same, seg_has_grad, s0, s1 = run(use_predict=True)
    print(f"predict(): segmentation term grad-free={not seg_has_grad}, same grads as L1 alone={same}")
    assert not seg_has_grad
    assert same

    same, seg_has_grad, f0, f1 = run(use_predict=False)
    print(f"forward(): segmentation loss {f0:.3f} -> {f1:.3f} (predict run ended at {s1:.3f})")
    assert seg_has_grad and not same
    assert f1 < s1 and f1 < 0.9 * f0


if __name__ == "__main__":
    main()

"""
expect: none
dynamic: dismiss
source: https://github.com/lhoyer/DAFormer/issues/37

The question: DAFormer's ImageNet feature-distance loss runs the frozen ImageNet
model under torch.no_grad and also detaches its features, so does the FD loss
train anything? It does: only the ImageNet side is cut; the source features of the
segmentation backbone keep their graph, so the FD term trains the student backbone
and nothing flows into the frozen reference. The asserts check that the student
backbone gets a gradient from the FD term alone, that the reference gets none, and
that the weight of the term scales the gradient.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def backbone():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))


class UDASegmentor(nn.Module):
    def __init__(self, fd_lambda=0.005):
        super().__init__()
        self.backbone = backbone()
        self.head = nn.Conv2d(8, 4, 1)
        self.imnet = copy.deepcopy(self.backbone)  # frozen ImageNet copy
        for p in self.imnet.parameters():
            p.requires_grad_(False)
        self.fd_lambda = fd_lambda

    def calc_feat_dist(self, img, feat):
        with torch.no_grad():
            self.imnet.eval()
            feat_imnet = self.imnet(img)
            feat_imnet = feat_imnet.detach()
        return self.fd_lambda * (feat - feat_imnet).pow(2).sum(1).sqrt().mean()

    def train_step(self, img, gt):
        feat = self.backbone(img)
        seg_loss = F.cross_entropy(self.head(feat), gt)
        fd_loss = self.calc_feat_dist(img, feat)
        return seg_loss, fd_loss


model = UDASegmentor()
img = torch.randn(2, 3, 8, 8)
gt = torch.randint(0, 4, (2, 8, 8))
with torch.no_grad():  # let the student drift from the ImageNet copy first
    for p in model.backbone.parameters():
        p.add_(0.1 * torch.randn_like(p))

seg, fd = model.train_step(img, gt)
fd.backward()
g1 = model.backbone[0].weight.grad.clone()
assert g1.abs().sum() > 0
assert all(p.grad is None for p in model.imnet.parameters())
assert model.head.weight.grad is None  # FD term does not touch the head

model.zero_grad()
model.fd_lambda = 0.01
_, fd2 = model.train_step(img, gt)
fd2.backward()
assert torch.allclose(model.backbone[0].weight.grad, 2 * g1, rtol=1e-4, atol=1e-7)
print("ok")

"""
expect: GL001 main.py:50
dynamic: confirm
source: none, invented

Transfer from quadrant classification to box regression, over three files. `models.py` has a conv backbone
and two heads, `pretrain.py` trains the backbone on quadrant labels and saves it, and `main.py` loads it and
trains a box head. Here the backbone is meant to keep training: `fit` gives it its own SGD optimizer with a
small learning rate and a cosine schedule, puts it in train mode and calls `backbone_opt.step()` every batch.
But the feature maps are fed to the box head as `backbone(images).detach()`, the backbone's only path to the
box loss, so its optimizer never sees a gradient and its conv weights stay equal to the checkpoint (only the
BatchNorm running statistics move). The asserts check the conv weights against the checkpoint and the missing
grads; `fit_with_backbone`, identical except for the `.detach()`, moves the backbone and reaches a lower box
loss.
"""
import os

import torch
import torch.nn.functional as F

from models import BoxHead, ConvBackbone
from pretrain import pretrain_backbone, square_images

torch.set_num_threads(1)

CKPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "checkpoints", "backbone.pt")


def load_backbone():
    backbone = ConvBackbone()
    backbone.load_state_dict(torch.load(CKPT))
    return backbone


def box_loss(backbone, head, images, boxes):
    backbone.eval()
    head.eval()
    with torch.no_grad():
        return F.smooth_l1_loss(head(backbone(images)), boxes).item()


def fit(backbone, head, images, boxes, epochs=15):
    backbone_opt = torch.optim.SGD(backbone.parameters(), lr=1e-2, momentum=0.9)
    head_opt = torch.optim.Adam(head.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(backbone_opt, T_max=epochs)
    for epoch in range(epochs):
        backbone.train()
        head.train()
        for idx in torch.randperm(images.shape[0]).split(64):
            feats = backbone(images[idx]).detach()
            loss = F.smooth_l1_loss(head(feats), boxes[idx])
            backbone_opt.zero_grad()
            head_opt.zero_grad()
            loss.backward()
            backbone_opt.step()
            head_opt.step()
        sched.step()
    return box_loss(backbone, head, images, boxes)


def fit_with_backbone(backbone, head, images, boxes, epochs=15):
    backbone_opt = torch.optim.SGD(backbone.parameters(), lr=1e-2, momentum=0.9)
    head_opt = torch.optim.Adam(head.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(backbone_opt, T_max=epochs)
    for epoch in range(epochs):
        backbone.train()
        head.train()
        for idx in torch.randperm(images.shape[0]).split(64):
            loss = F.smooth_l1_loss(head(backbone(images[idx])), boxes[idx])
            backbone_opt.zero_grad()
            head_opt.zero_grad()
            loss.backward()
            backbone_opt.step()
            head_opt.step()
        sched.step()
    return box_loss(backbone, head, images, boxes)


def conv_weights(backbone):
    return [m.weight.detach().clone() for m in backbone.features if isinstance(m, torch.nn.Conv2d)]


def main():
    if not os.path.exists(CKPT):
        pretrain_backbone(CKPT)
    images, _, boxes = square_images(1500, seed=3)

    torch.manual_seed(0)
    backbone = load_backbone()
    w0 = conv_weights(backbone)
    head = BoxHead(backbone.out_channels)
    loss = fit(backbone, head, images, boxes)
    assert all(p.grad is None for p in backbone.parameters())
    assert all(torch.equal(a, b) for a, b in zip(w0, conv_weights(backbone)))

    torch.manual_seed(0)
    backbone2 = load_backbone()
    head2 = BoxHead(backbone2.out_channels)
    loss2 = fit_with_backbone(backbone2, head2, images, boxes)
    assert not any(torch.equal(a, b) for a, b in zip(w0, conv_weights(backbone2)))
    assert loss2 < loss, (loss, loss2)
    print(f"box smooth-l1 {loss:.5f} (backbone as loaded) vs {loss2:.5f} (backbone trained)")


if __name__ == "__main__":
    main()

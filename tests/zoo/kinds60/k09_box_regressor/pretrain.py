import os
import sys

import torch
import torch.nn.functional as F

from models import ClassifierHead, ConvBackbone

SIZE = 16


def square_images(n, seed=0):
    """One bright rectangle per image; returns images, quadrant labels and normalized (x0, y0, x1, y1) boxes."""
    g = torch.Generator().manual_seed(seed)
    images = 0.1 * torch.randn(n, 1, SIZE, SIZE, generator=g)
    wh = torch.randint(3, 7, (n, 2), generator=g)
    x0 = (torch.rand(n, generator=g) * (SIZE - wh[:, 0])).long()
    y0 = (torch.rand(n, generator=g) * (SIZE - wh[:, 1])).long()
    for i in range(n):
        images[i, 0, y0[i]:y0[i] + wh[i, 1], x0[i]:x0[i] + wh[i, 0]] += 1.0
    cx, cy = x0 + wh[:, 0] / 2, y0 + wh[:, 1] / 2
    quadrant = (cx >= SIZE / 2).long() + 2 * (cy >= SIZE / 2).long()
    boxes = torch.stack([x0, y0, x0 + wh[:, 0], y0 + wh[:, 1]], dim=1).float() / SIZE
    return images, quadrant, boxes


def pretrain_backbone(ckpt_path, epochs=5):
    torch.manual_seed(0)
    images, quadrant, _ = square_images(2000)
    backbone = ConvBackbone()
    head = ClassifierHead(backbone.out_channels)
    opt = torch.optim.Adam(list(backbone.parameters()) + list(head.parameters()), lr=2e-3)
    for epoch in range(epochs):
        for idx in torch.randperm(images.shape[0]).split(64):
            loss = F.cross_entropy(head(backbone(images[idx])), quadrant[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    os.makedirs(os.path.dirname(ckpt_path) or ".", exist_ok=True)
    torch.save(backbone.state_dict(), ckpt_path)
    return loss.item()


if __name__ == "__main__":
    path = sys.argv[1] if len(sys.argv) > 1 else "checkpoints/backbone.pt"
    print("final classification loss", pretrain_backbone(path))

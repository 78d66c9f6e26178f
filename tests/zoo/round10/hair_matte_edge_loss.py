"""
expect: GL002 30
dynamic: confirm
source: https://github.com/wonbeomjang/mobile-hair-segmentation-pytorch/blob/3073aea35b1390a30b4d6217f2f27d4c6e64f0f0/loss/loss.py

mobile-hair-segmentation-pytorch implements the HairMatteNet image-gradient
loss by moving the predicted mask to NumPy (`pred[i][0].cpu().detach().numpy()`),
running Sobel filters from scikit-image, and wrapping the results again with
`torch.from_numpy`; issue #3 on the repo questions whether that loss can
backpropagate at all. This program writes the same idea in its own code: an
edge-consistency term whose mask gradients are computed in NumPy by a helper
and rebuilt with torch.from_numpy, added to the cross-entropy of a tiny
segmentation net. The asserts show the network gradient is identical with the
edge term weighted 0 or 0.5 (it never reaches the parameters), while the same
term computed with torch ops does change the gradient.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def spatial_gradients(mask):
    """Finite-difference x/y gradients of a batch of HxW maps, computed in NumPy."""
    arr = mask.detach().cpu().numpy()
    gx = np.zeros_like(arr)
    gy = np.zeros_like(arr)
    gx[:, :, 1:] = arr[:, :, 1:] - arr[:, :, :-1]
    gy[:, 1:, :] = arr[:, 1:, :] - arr[:, :-1, :]
    return torch.from_numpy(np.stack([gx, gy], axis=1))


def edge_consistency(image, hair_prob):
    gray = image.mean(dim=1)
    img_g = spatial_gradients(gray)
    mask_g = spatial_gradients(hair_prob)
    mag = mask_g.pow(2).sum(1).sqrt()
    align = (img_g * mask_g).sum(1)
    return (mag * (1.0 - align.pow(2))).sum() / mag.sum().clamp(min=1e-6)


class HairMatteLoss(nn.Module):
    def __init__(self, edge_weight=0.5):
        super().__init__()
        self.edge_weight = edge_weight

    def forward(self, logits, image, mask):
        ce = F.cross_entropy(logits, mask)
        hair_prob = logits.softmax(dim=1)[:, 1]
        return ce + self.edge_weight * edge_consistency(image, hair_prob)


def torch_edge_consistency(image, hair_prob):
    def grads(m):
        gx = F.pad(m[:, :, 1:] - m[:, :, :-1], (1, 0))
        gy = F.pad(m[:, 1:, :] - m[:, :-1, :], (0, 0, 1, 0))
        return torch.stack([gx, gy], 1)
    img_g, mask_g = grads(image.mean(1)), grads(hair_prob)
    mag = mask_g.pow(2).sum(1).sqrt()
    return (mag * (1.0 - (img_g * mask_g).sum(1).pow(2))).sum() / mag.sum().clamp(min=1e-6)


def main():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 2, 3, padding=1))
    image = torch.rand(2, 3, 24, 24)
    mask = (torch.rand(2, 24, 24) > 0.5).long()

    grads = []
    for w in (0.0, 0.5):
        net.zero_grad(set_to_none=True)
        HairMatteLoss(edge_weight=w)(net(image), image, mask).backward()
        grads.append(torch.cat([p.grad.flatten() for p in net.parameters()]))
    assert torch.equal(grads[0], grads[1])

    net.zero_grad(set_to_none=True)
    logits = net(image)
    assert edge_consistency(image, logits.softmax(1)[:, 1]).item() > 0
    torch_edge_consistency(image, logits.softmax(1)[:, 1]).backward()
    assert net[0].weight.grad.abs().sum() > 0
    print("edge-consistency term never reaches the network: confirmed")


if __name__ == "__main__":
    main()

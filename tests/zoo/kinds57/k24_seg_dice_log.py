"""
expect: none
dynamic: dismiss
source: none, invented

Binary segmentation of bright discs in noisy microscopy-like images with a small fully convolutional
net. `segmentation_loss` returns the BCE + soft-Dice loss tensor together with `hard_dice.item()`, a
thresholded Dice score as a Python float; the caller backpropagates only the tensor and uses the float
for the progress log and for a `ReduceLROnPlateau` scheduler. The float never enters the loss, so
converting it is harmless. The asserts show every layer getting gradients, the gradients of
`segmentation_loss` equal to those of the BCE + soft-Dice expression written out directly, and the
logged Dice rising above 0.8.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def soft_dice(prob, mask, eps=1.0):
    inter = (prob * mask).sum((1, 2, 3))
    return ((2 * inter + eps) / (prob.sum((1, 2, 3)) + mask.sum((1, 2, 3)) + eps)).mean()


def segmentation_loss(logits, mask):
    prob = torch.sigmoid(logits)
    loss = F.binary_cross_entropy_with_logits(logits, mask) + (1 - soft_dice(prob, mask))
    with torch.no_grad():
        hard_dice = soft_dice((prob > 0.5).float(), mask, eps=1e-6)
    return loss, hard_dice.item()


def disc_images(n=64, size=24):
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    cy, cx = torch.randint(6, size - 6, (2, n))
    r = torch.randint(3, 6, (n,))
    mask = (((yy[None] - cy[:, None, None]) ** 2 + (xx[None] - cx[:, None, None]) ** 2) <= r[:, None, None] ** 2)
    mask = mask.float()[:, None]
    return mask * 0.8 + 0.35 * torch.randn_like(mask), mask


def make_net():
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
        nn.Conv2d(16, 16, 3, padding=2, dilation=2), nn.ReLU(),
        nn.Conv2d(16, 1, 1),
    )


if __name__ == "__main__":
    net = make_net()
    images, masks = disc_images()
    loss, dice = segmentation_loss(net(images[:8]), masks[:8])
    loss.backward()
    g_fn = [p.grad.clone() for p in net.parameters()]
    net.zero_grad()
    logits = net(images[:8])
    direct = F.binary_cross_entropy_with_logits(logits, masks[:8]) + 1 - soft_dice(torch.sigmoid(logits), masks[:8])
    direct.backward()
    assert all(torch.allclose(a, p.grad) for a, p in zip(g_fn, net.parameters()))
    assert isinstance(dice, float)

    opt = torch.optim.Adam(net.parameters(), lr=5e-3)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max", patience=3)
    for epoch in range(25):
        epoch_dice = []
        for i in range(0, 64, 16):
            loss, dice = segmentation_loss(net(images[i:i + 16]), masks[i:i + 16])
            opt.zero_grad()
            loss.backward()
            opt.step()
            epoch_dice.append(dice)
        mean_dice = sum(epoch_dice) / len(epoch_dice)
        sched.step(mean_dice)
        if epoch % 8 == 0:
            print(f"epoch {epoch:2d} loss {loss.item():.3f} dice {mean_dice:.3f}")
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in net.parameters())
    assert mean_dice > 0.8, mean_dice
    print(f"final dice {mean_dice:.3f}")

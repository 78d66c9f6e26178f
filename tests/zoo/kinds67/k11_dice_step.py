"""
expect: GL002 43
dynamic: confirm
source: none, invented

A binary segmentation training step with BCE plus a soft Dice term. `train_step(model,
*batch, legacy_dice=...)` gets the batch spread into its positional arguments and a
keyword flag that picks how Dice is computed: the legacy path, ported from an older NumPy
evaluation script, takes `sigmoid(logits).detach().numpy()`, computes the soft Dice with
NumPy and brings it back with `torch.from_numpy` before adding it to the loss; the other
path computes the same Dice in torch. The script runs both (legacy for the first epoch,
as in the original config). In the legacy path the Dice term is a constant: the value of
the loss is right but its gradient is exactly the BCE gradient. The asserts show that,
and that the torch path's gradient differs from the BCE-only gradient.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def soft_dice_np(probs, target, eps=1.0):
    inter = (probs * target).sum(axis=(1, 2, 3))
    denom = probs.sum(axis=(1, 2, 3)) + target.sum(axis=(1, 2, 3))
    return (2 * inter + eps) / (denom + eps)


def soft_dice(probs, target, eps=1.0):
    inter = (probs * target).sum(dim=(1, 2, 3))
    denom = probs.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3))
    return (2 * inter + eps) / (denom + eps)


def train_step(model, images, masks, *, legacy_dice=False):
    logits = model(images)
    bce = F.binary_cross_entropy_with_logits(logits, masks)
    if legacy_dice:
        probs_np = torch.sigmoid(logits).detach().numpy()
        dice_np = soft_dice_np(probs_np, masks.numpy())
        dice = torch.from_numpy(dice_np)
    else:
        dice = soft_dice(torch.sigmoid(logits), masks)
    loss = bce + (1 - dice).mean()
    model.zero_grad()
    loss.backward()
    return bce, loss


def bce_only_grad(model, images, masks):
    model.zero_grad()
    F.binary_cross_entropy_with_logits(model(images), masks).backward()
    return model[0].weight.grad.clone()


model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))
images = torch.randn(4, 1, 16, 16)
masks = (torch.rand(4, 1, 16, 16) > 0.7).float()
batch = (images, masks)

ref = bce_only_grad(model, *batch)
bce, loss = train_step(model, *batch, legacy_dice=True)
assert loss.item() > bce.item()
assert torch.allclose(model[0].weight.grad, ref, atol=1e-7)

ref = bce_only_grad(model, *batch)
bce, loss = train_step(model, *batch, legacy_dice=False)
assert not torch.allclose(model[0].weight.grad, ref, atol=1e-5)
print("ok")

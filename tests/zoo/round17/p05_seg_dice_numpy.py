"""
expect: GL002 55
dynamic: confirm
source: https://github.com/delira-dev/delira/issues/40

delira issue #40 ("Can pytorch_tensor_to_numpy backword gradient?"): a user of the delira medical
imaging framework asked whether a loss computed after the framework's pytorch_tensor_to_numpy
conversion can still backpropagate; the maintainer answered no - gradients only flow through torch
ops. This program rebuilds a small segmentation trainer whose closure converts the sigmoid
probabilities with pytorch_tensor_to_numpy, computes a soft Dice loss in NumPy, and turns the result
back into a tensor with torch.from_numpy(...).requires_grad_() so that backward() does not raise.
It asserts the U-Net-like model receives no gradient and its Dice never improves, while the same
Dice written in torch trains the model.
"""
import numpy as np
import torch
import torch.nn as nn


def pytorch_tensor_to_numpy(tensor):
    return tensor.detach().cpu().numpy()


def soft_dice_np(probs, target, eps=1.0):
    inter = (probs * target).sum(axis=(1, 2, 3))
    denom = probs.sum(axis=(1, 2, 3)) + target.sum(axis=(1, 2, 3))
    return float(((2 * inter + eps) / (denom + eps)).mean())


def soft_dice_torch(probs, target, eps=1.0):
    inter = (probs * target).sum(dim=(1, 2, 3))
    denom = probs.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3))
    return ((2 * inter + eps) / (denom + eps)).mean()


class TinySegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.out = nn.Conv2d(8, 1, 1)

    def forward(self, x):
        return self.out(self.enc(x))


class SegTrainer:
    def __init__(self, model, numpy_loss=True):
        self.model, self.numpy_loss = model, numpy_loss
        self.optim = torch.optim.Adam(model.parameters(), lr=1e-2)

    def closure(self, image, mask):
        probs = torch.sigmoid(self.model(image))
        if self.numpy_loss:
            dice = soft_dice_np(pytorch_tensor_to_numpy(probs), pytorch_tensor_to_numpy(mask))
            loss = torch.from_numpy(np.asarray(1.0 - dice, dtype=np.float32)).requires_grad_()
        else:
            loss = 1.0 - soft_dice_torch(probs, mask)
        self.optim.zero_grad()
        loss.backward()
        grad = self.model.out.weight.grad
        self.optim.step()
        return loss.item(), grad


def make_data(n=8, size=24):
    gen = torch.Generator().manual_seed(0)
    img = torch.randn(n, 1, size, size, generator=gen) * 0.3
    mask = torch.zeros(n, 1, size, size)
    for i in range(n):
        r, c = torch.randint(4, size - 10, (2,), generator=gen).tolist()
        mask[i, :, r:r + 8, c:c + 8] = 1.0
    return img + mask, mask  # lesion is brighter than background


def run(numpy_loss, steps=40):
    torch.manual_seed(0)
    trainer = SegTrainer(TinySegNet(), numpy_loss=numpy_loss)
    img, mask = make_data()
    losses, grads = [], []
    for _ in range(steps):
        loss, grad = trainer.closure(img, mask)
        losses.append(loss)
        grads.append(grad)
    return losses, grads


losses, grads = run(numpy_loss=True)
assert all(g is None for g in grads), "segmentation net got a gradient through NumPy?"
assert abs(losses[-1] - losses[0]) < 1e-6, (losses[0], losses[-1])

losses_fix, grads_fix = run(numpy_loss=False)
assert all(g is not None for g in grads_fix)
assert losses_fix[-1] < losses_fix[0] - 0.2, (losses_fix[0], losses_fix[-1])
print("p05 ok: Dice computed in NumPy and re-wrapped with requires_grad_() never trains the model")

"""
expect: none
dynamic: dismiss
source: https://github.com/PatRyg99/HausdorffLoss/issues/5

PatRyg99/HausdorffLoss issue #5 ("about gradient"): readers asked why the distance-transform loss
can train at all when distance_field() runs under torch.no_grad() and converts the prediction with
.cpu().numpy(); the author's answer was that the distance transform is non-differentiable and is
treated as a constant weight between iterations, while the gradient flows through the squared
error term (pred - target) ** 2. This program rebuilds the HausdorffDTLoss (with a NumPy distance
transform) for a small lesion-segmentation net and asserts the look-alike is correct: the NumPy
round trip only produces the weight field, the network receives gradients through the error term,
its weights move and the loss falls.
"""
import numpy as np
import torch
import torch.nn as nn


def edt(mask):
    """Euclidean distance from every True pixel to the nearest False pixel (0 elsewhere)."""
    out = np.zeros(mask.shape, dtype=np.float64)
    inside, outside = np.argwhere(mask), np.argwhere(~mask)
    if len(inside) and len(outside):
        d = np.sqrt(((inside[:, None, :] - outside[None, :, :]) ** 2).sum(-1)).min(1)
        out[tuple(inside.T)] = d
    return out


class HausdorffDTLoss(nn.Module):
    def __init__(self, alpha=2.0):
        super().__init__()
        self.alpha = alpha

    @torch.no_grad()
    def distance_field(self, img):
        arr = img.cpu().numpy()
        field = np.zeros_like(arr)
        for b in range(arr.shape[0]):
            fg = arr[b, 0] > 0.5
            if fg.any():
                field[b, 0] = edt(fg) + edt(~fg)
        return torch.from_numpy(field).float()

    def forward(self, pred, target):
        pred_dt = self.distance_field(pred)
        target_dt = self.distance_field(target)
        pred_error = (pred - target) ** 2
        distance = pred_dt ** self.alpha + target_dt ** self.alpha
        return (pred_error * distance).mean()


def lesions(n=6, size=16):
    gen = torch.Generator().manual_seed(0)
    masks = torch.zeros(n, 1, size, size)
    for i in range(n):
        r, c = torch.randint(3, size - 8, (2,), generator=gen).tolist()
        masks[i, :, r:r + 5, c:c + 5] = 1
    return masks + 0.3 * torch.randn(n, 1, size, size, generator=gen), masks


torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
criterion = HausdorffDTLoss()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
images, masks = lesions()
w0 = net[0].weight.detach().clone()
losses = []
for step in range(40):
    pred = torch.sigmoid(net(images))
    loss = criterion(pred, masks)
    opt.zero_grad()
    loss.backward()
    if step == 0:
        assert loss.grad_fn is not None
        assert net[0].weight.grad is not None and net[0].weight.grad.abs().sum() > 0
    opt.step()
    losses.append(loss.item())

assert not torch.equal(w0, net[0].weight)
assert losses[-1] < 0.5 * losses[0], (losses[0], losses[-1])
print("p17 ok: NumPy distance field used only as a constant weight; the net still trains")

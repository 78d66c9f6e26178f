"""expect: none
dynamic: none
source: https://github.com/JunMa11/SegLossOdyssey/issues/17

Training a tiny segmentation net with the Hausdorff distance-transform loss
from a loss-function collection (losses.py). The loss computes distance maps of
the thresholded prediction and of the target with numpy, on
`pred.detach().cpu().numpy()` inside a no_grad helper, and turns them back into
tensors with torch.from_numpy. That round trip is fine: the distance maps are
only per-pixel weights, and the differentiable part, (pred - target)**2, is
computed directly from the network output, so gradients reach the network
exactly as if the weights were constants, and it trains.
"""
import torch
import torch.nn as nn

from losses import HausdorffDTLoss


class TinySegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 1, 1))

    def forward(self, x):
        return torch.sigmoid(self.net(x))


def make_batch(n=4, size=10):
    imgs = torch.zeros(n, 1, size, size)
    masks = torch.zeros(n, 1, size, size)
    for i in range(n):
        r0, c0 = 2 + i % 3, 3 + i % 2
        masks[i, 0, r0:r0 + 4, c0:c0 + 4] = 1.0
    imgs = masks + 0.2 * torch.randn_like(masks)
    return imgs, masks


def main():
    torch.manual_seed(0)
    model = TinySegNet()
    criterion = HausdorffDTLoss()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    imgs, masks = make_batch()

    pred = model(imgs)
    loss = criterion(pred, masks)
    grads = torch.autograd.grad(loss, list(model.parameters()))
    assert all(g.abs().sum() > 0 for g in grads)

    history = []
    for _ in range(16):
        loss = criterion(model(imgs), masks)
        opt.zero_grad()
        loss.backward()
        opt.step()
        history.append(loss.item())
    assert history[-1] < 0.5 * history[0]
    print("HD-DT loss trains the net: %.3f -> %.3f" % (history[0], history[-1]))


if __name__ == "__main__":
    main()

"""expect: none
dynamic: dismiss

A flood-mapping segmentation network on satellite tiles is trained with a Tversky loss module that holds only a buffer (a running estimate of the water fraction, used to set its false-negative weight). The module's `forward` returns the computed tensor itself, so the Tversky term keeps its graph and drives the network's gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RunningTverskyLoss(nn.Module):
    def __init__(self, momentum=0.1, eps=1.0):
        super().__init__()
        self.momentum, self.eps = momentum, eps
        self.register_buffer("water_frac", torch.tensor(0.5))

    def forward(self, logits, mask):
        with torch.no_grad():
            self.water_frac.lerp_(mask.mean(), self.momentum)
        beta = (1 - self.water_frac).clamp(0.5, 0.9)
        probs = torch.sigmoid(logits)
        tp = (probs * mask).sum()
        fn = ((1 - probs) * mask).sum()
        fp = (probs * (1 - mask)).sum()
        tversky = (tp + self.eps) / (tp + beta * fn + (1 - beta) * fp + self.eps)
        return 1 - tversky


def main():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
    tversky = RunningTverskyLoss()
    assert len(list(tversky.parameters())) == 0
    tiles = torch.randn(8, 4, 32, 32)
    water = (tiles[:, 3:4] - tiles[:, 1:2] > 0.8).float()  # NDWI-like band contrast

    logits = net(tiles)
    (g_bce,) = torch.autograd.grad(F.binary_cross_entropy_with_logits(logits, water), net[0].weight, retain_graph=True)
    term = tversky(logits, water)
    assert term.requires_grad
    (g_both,) = torch.autograd.grad(F.binary_cross_entropy_with_logits(logits, water) + term, net[0].weight)
    assert not torch.allclose(g_bce, g_both), "Tversky term should change gradients"

    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    hist = []
    for _ in range(60):
        loss = tversky(net(tiles), water)
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.append(loss.item())
    assert hist[-1] < 0.5 * hist[0], (hist[0], hist[-1])
    print(f"E3 ok: Tversky-only training works ({hist[0]:.3f} -> {hist[-1]:.3f})")


if __name__ == "__main__":
    main()

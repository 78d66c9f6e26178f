"""expect: none
dynamic: dismiss
source: https://github.com/Parskatt/RoMaV2/issues/27

Coarse-to-fine dense matching / optical flow in the style of RoMa: a coarse head predicts a low-resolution
flow from shared features, and a chain of refiners each takes the upsampled previous estimate, predicts a
residual at its own scale and is supervised there against the ground-truth flow. Before a refiner uses the
previous estimate, the estimate is detached, so a finer scale's loss does not push on the coarser stages;
this is the design the issue asks about, and the maintainer's answer is that each refiner has its own loss
and should be supervised directly. It looks like a cut path, but every stage's own loss term reaches it,
so nothing the optimiser holds is left without gradient. The asserts check that
the coarse head, every refiner and the shared encoder get nonzero gradients, that a refiner's gradient comes
from its own scale's loss alone, and that the multi-scale end-point error drops in training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Matcher(nn.Module):
    def __init__(self, ch=16, n_refiners=2):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(6, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU())
        self.coarse = nn.Conv2d(ch, 2, 3, padding=1)
        self.refiners = nn.ModuleList(
            nn.Sequential(nn.Conv2d(ch + 2, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, 2, 3, padding=1))
            for _ in range(n_refiners))

    def forward(self, img_a, img_b):
        feats = self.encoder(torch.cat([img_a, img_b], dim=1))
        n = len(self.refiners)
        coarse_feats = F.avg_pool2d(feats, 2 ** n)
        flow = self.coarse(coarse_feats)
        preds = [flow]
        for i, refiner in enumerate(self.refiners):
            scale = 2 ** (n - i - 1)
            prev = F.interpolate(flow, scale_factor=2, mode="bilinear", align_corners=False) * 2
            prev = prev.detach()
            level_feats = F.avg_pool2d(feats, scale) if scale > 1 else feats
            flow = prev + refiner(torch.cat([level_feats, prev], dim=1))
            preds.append(flow)
        return preds


def multiscale_loss(preds, gt):
    losses = []
    for p in preds:
        s = gt.shape[-1] // p.shape[-1]
        target = F.avg_pool2d(gt, s) / s if s > 1 else gt
        losses.append((p - target).norm(dim=1).mean())
    return losses


def sample(n=4):
    img_a = torch.rand(n, 3, 16, 16)
    base = torch.randn(n, 2, 2, 2) * 2
    gt = F.interpolate(base, size=(16, 16), mode="bilinear", align_corners=False)
    img_b = torch.roll(img_a, shifts=1, dims=-1) + 0.1 * gt.mean(1, keepdim=True)
    return img_a, img_b, gt


model = Matcher()
img_a, img_b, gt = sample()
losses = multiscale_loss(model(img_a, img_b), gt)
total = sum(losses)
total.backward()
groups = {"encoder": model.encoder, "coarse": model.coarse}
groups.update({"refiner%d" % i: r for i, r in enumerate(model.refiners)})
for name, module in groups.items():
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in module.parameters()), name

# The last refiner's gradient comes from its own scale's term only.
model.zero_grad()
preds = model(img_a, img_b)
per_scale = multiscale_loss(preds, gt)
own = torch.autograd.grad(per_scale[-1], list(model.refiners[-1].parameters()), retain_graph=True)
model.zero_grad()
sum(per_scale).backward()
assert all(torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(own, model.refiners[-1].parameters()))

opt = torch.optim.Adam(model.parameters(), lr=3e-3)
data = [sample() for _ in range(4)]
history = []
for _ in range(60):
    for a, b, g in data:
        loss = sum(multiscale_loss(model(a, b), g))
        opt.zero_grad()
        loss.backward()
        opt.step()
        history.append(loss.item())
assert sum(history[-4:]) < 0.5 * sum(history[:4])
print("ok: detached coarse estimates, every stage still trained (EPE sum %.3f -> %.3f)" % (history[0], history[-1]))

"""
expect: none
dynamic: dismiss
source: https://github.com/PatrickHua/SimSiam/issues/39

An issue on PatrickHua/SimSiam says the stop-gradient is missing from the model, so both
branches get trained. It is there, in the loss helper: D(p, z) computes the negative cosine
similarity against z.detach(), which is SimSiam's stop-gradient (the target branch of each
term is constant, the predictor branch carries the gradient). This file keeps that structure
(backbone + projector, predictor, symmetric D loss in a helper) on random two-view batches; the
asserts check that the loss equals the same formula with hand-made constant targets, that
backbone, projector and predictor all receive gradients, and that training lowers the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def D(p, z, version="simplified"):
    if version == "original":
        z = z.detach()
        p = F.normalize(p, dim=1)
        z = F.normalize(z, dim=1)
        return -(p * z).sum(dim=1).mean()
    return -F.cosine_similarity(p, z.detach(), dim=-1).mean()


class SimSiam(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.projector = nn.Sequential(nn.Linear(16, dim), nn.BatchNorm1d(dim), nn.ReLU(), nn.Linear(dim, dim))
        self.predictor = nn.Sequential(nn.Linear(dim, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, dim))

    def forward(self, x1, x2):
        z1, z2 = self.projector(self.backbone(x1)), self.projector(self.backbone(x2))
        p1, p2 = self.predictor(z1), self.predictor(z2)
        return {"loss": D(p1, z2) / 2 + D(p2, z1) / 2, "z": (z1, z2), "p": (p1, p2)}


model = SimSiam()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
base = torch.randn(16, 3, 16, 16)


def views():
    return base + 0.1 * torch.randn_like(base), base + 0.1 * torch.randn_like(base)


out = model(*views())
z1, z2 = (z.detach().clone() for z in out["z"])
p1, p2 = out["p"]
manual = -(F.cosine_similarity(p1, z2).mean() + F.cosine_similarity(p2, z1).mean()) / 2
assert torch.allclose(out["loss"], manual)
assert torch.allclose(D(p1, z2, "original"), D(p1, z2))
out["loss"].backward()
for part in (model.backbone, model.projector, model.predictor):
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in part.parameters() if p.dim() > 1)

losses = []
for _ in range(30):
    loss = model(*views())["loss"]
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert sum(losses[-5:]) / 5 < sum(losses[:5]) / 5
print("q16 ok: SimSiam's detach in D() is the intended stop-gradient")

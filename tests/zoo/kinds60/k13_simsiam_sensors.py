"""
expect: none
dynamic: dismiss
source: none, invented

SimSiam self-supervised pretraining on periodic sensor windows. The model takes a
constructor argument `stop_grad` (default True, and the script keeps it) and in `forward` does
`if self.stop_grad:` `z1 = z1.detach()` / `z2 = z2.detach()`. Those detached projections are only the targets
of the symmetric negative-cosine loss; the backbone and projector still get their gradient through the other
branch, `p1 = predictor(z1)` / `p2 = predictor(z2)`, which is exactly SimSiam's stop-gradient design. So the
flag, as run, cuts a target and not a model's only path. The asserts check that backbone, projector and
predictor all change, the SimSiam loss falls, and the l2-normalized outputs keep their spread across
dimensions (std times sqrt(d) well above 0), i.e. the representation trained without collapsing.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

IN_DIM, N_CLASSES = 48, 6


class SimSiam(nn.Module):
    def __init__(self, feat_dim=64, proj_dim=64, pred_hidden=32, stop_grad=True):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(IN_DIM, 128), nn.BatchNorm1d(128), nn.ReLU(),
                                      nn.Linear(128, feat_dim))
        self.projector = nn.Sequential(nn.Linear(feat_dim, proj_dim), nn.BatchNorm1d(proj_dim), nn.ReLU(),
                                       nn.Linear(proj_dim, proj_dim), nn.BatchNorm1d(proj_dim))
        self.predictor = nn.Sequential(nn.Linear(proj_dim, pred_hidden), nn.BatchNorm1d(pred_hidden), nn.ReLU(),
                                       nn.Linear(pred_hidden, proj_dim))
        self.stop_grad = stop_grad

    def forward(self, x1, x2):
        z1 = self.projector(self.backbone(x1))
        z2 = self.projector(self.backbone(x2))
        p1, p2 = self.predictor(z1), self.predictor(z2)
        if self.stop_grad:
            z1 = z1.detach()
            z2 = z2.detach()
        return p1, p2, z1, z2


def simsiam_loss(p1, p2, z1, z2):
    return -0.5 * (F.cosine_similarity(p1, z2, dim=-1).mean() + F.cosine_similarity(p2, z1, dim=-1).mean())


def augment(x):
    shift = torch.randint(-3, 4, (1,)).item()
    x = torch.roll(x, shifts=shift, dims=1)
    return x * (1 + 0.2 * torch.randn(x.shape[0], 1)) + 0.3 * torch.randn_like(x)


def sensor_windows(n=3000):
    cls = torch.randint(0, N_CLASSES, (n,))
    t = torch.linspace(0, 1, IN_DIM)
    freq = 1.0 + cls.float()
    phase = torch.rand(n, 1) * 6.28
    return torch.sin(6.28 * freq[:, None] * t[None] + phase), cls


def output_spread(model, x):
    model.eval()
    with torch.no_grad():
        z = F.normalize(model.projector(model.backbone(x)), dim=-1)
    model.train()
    return z.std(dim=0).mean().item() * z.shape[1] ** 0.5


def main():
    x, y = sensor_windows()
    model = SimSiam()
    parts = {"backbone": model.backbone, "projector": model.projector, "predictor": model.predictor}
    before = {k: [p.detach().clone() for p in m.parameters()] for k, m in parts.items()}

    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
    history = []
    for epoch in range(20):
        for idx in torch.randperm(2000).split(128):
            xb = x[idx]
            loss = simsiam_loss(*model(augment(xb), augment(xb)))
            opt.zero_grad()
            loss.backward()
            opt.step()
            history.append(loss.item())

    for k, m in parts.items():
        assert not any(torch.equal(a, b) for a, b in zip(before[k], m.parameters())), k
    early, late = sum(history[:10]) / 10, sum(history[-10:]) / 10
    assert late < early - 0.2, (early, late)
    spread = output_spread(model, x)
    assert spread > 0.5, spread
    print(f"simsiam loss {early:.3f} -> {late:.3f}; normalized output spread {spread:.3f}")


if __name__ == "__main__":
    main()

"""expect: none
dynamic: none
source: https://github.com/vturrisi/solo-learn/issues/135

Self-supervised SimSiam-style training with an online linear probe, laid out
like solo-learn's base method: the backbone features feed (a) the
projector/predictor for the self-supervised loss and (b) a linear classifier
that only monitors representation quality. The classifier sees
`feats.detach()` so that label information never leaks into the backbone, and
the SimSiam loss uses a stop-gradient on the target projection. Both detaches
are intended: the backbone still trains through the self-supervised loss (its
gradient equals the gradient of that loss alone) and the probe trains on top.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SimSiamWithProbe(nn.Module):
    def __init__(self, in_dim=12, feat_dim=16, proj_dim=8, n_classes=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, feat_dim), nn.ReLU(), nn.Linear(feat_dim, feat_dim))
        self.projector = nn.Sequential(nn.Linear(feat_dim, proj_dim), nn.BatchNorm1d(proj_dim))
        self.predictor = nn.Sequential(nn.Linear(proj_dim, proj_dim), nn.ReLU(), nn.Linear(proj_dim, proj_dim))
        self.classifier = nn.Linear(feat_dim, n_classes)

    def forward(self, x):
        feats = self.backbone(x)
        logits = self.classifier(feats.detach())
        z = self.projector(feats)
        return {"feats": feats, "logits": logits, "z": z, "p": self.predictor(z)}


def negative_cosine(p, z):
    return -F.cosine_similarity(p, z.detach(), dim=-1).mean()


def training_step(model, x1, x2, labels):
    o1, o2 = model(x1), model(x2)
    ssl = 0.5 * (negative_cosine(o1["p"], o2["z"]) + negative_cosine(o2["p"], o1["z"]))
    probe = 0.5 * (F.cross_entropy(o1["logits"], labels) + F.cross_entropy(o2["logits"], labels))
    return ssl, probe


def main():
    torch.manual_seed(0)
    model = SimSiamWithProbe()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x = torch.randn(32, 12)
    labels = (x[:, 0] > 0).long() + (x[:, 1] > 0).long()
    aug = lambda t: t + 0.05 * torch.randn_like(t)

    torch.manual_seed(1)
    x1, x2 = aug(x), aug(x)
    ssl, probe = training_step(model, x1, x2, labels)
    bb = list(model.backbone.parameters())
    g_total = torch.autograd.grad(ssl + probe, bb, retain_graph=True)
    g_ssl = torch.autograd.grad(ssl, bb)
    assert all(torch.allclose(a, b) for a, b in zip(g_total, g_ssl))
    assert any(g.abs().sum() > 0 for g in g_ssl)

    w0 = model.backbone[0].weight.detach().clone()
    first_probe = None
    for _ in range(20):
        ssl, probe = training_step(model, aug(x), aug(x), labels)
        opt.zero_grad()
        (ssl + probe).backward()
        opt.step()
        if first_probe is None:
            first_probe = probe.item()
    assert not torch.equal(model.backbone[0].weight.detach(), w0)
    assert model.classifier.weight.grad is not None
    assert probe.item() < first_probe
    print("backbone trained by SSL loss only; probe trained on detached features")


if __name__ == "__main__":
    main()

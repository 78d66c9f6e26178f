"""
expect: none
dynamic: dismiss
source: none, invented

A SimSiam-style self-supervised step under autocast with a GradScaler. Two augmented views go through the
same encoder and projector; a predictor maps one view's projection onto the other's, and the target side is
cut with `.detach()` (the stop-gradient of the method). The detached projection is not the only path by which
the encoder and projector reach the loss: the symmetric term sends gradient through the other view, and the
predictor is always on the live side. A detached copy of the loss is kept only for logging. The asserts show
encoder, projector and predictor all get non-zero gradients and change after a few steps.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def build(dim=32, hidden=16):
    encoder = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, 64))
    projector = nn.Sequential(nn.Linear(64, hidden), nn.BatchNorm1d(hidden))
    predictor = nn.Sequential(nn.Linear(hidden, 8), nn.ReLU(), nn.Linear(8, hidden))
    return encoder, projector, predictor


def neg_cosine(p, z):
    z = z.detach()
    return -F.cosine_similarity(p, z, dim=-1).mean()


def augment(x):
    return x + 0.1 * torch.randn_like(x)


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    encoder, projector, predictor = build()
    modules = nn.ModuleDict({"enc": encoder, "proj": projector, "pred": predictor})
    before = copy.deepcopy(modules.state_dict())
    opt = torch.optim.SGD(modules.parameters(), lr=0.05, momentum=0.9)
    scaler = torch.amp.GradScaler("cpu", enabled=False)
    data = torch.randn(24, 32)
    history = []
    for step in range(5):
        v1, v2 = augment(data), augment(data)
        opt.zero_grad()
        with torch.autocast("cpu", dtype=torch.bfloat16):
            z1, z2 = projector(encoder(v1)), projector(encoder(v2))
            p1, p2 = predictor(z1), predictor(z2)
            loss = 0.5 * neg_cosine(p1.float(), z2.float()) + 0.5 * neg_cosine(p2.float(), z1.float())
        scaler.scale(loss).backward()
        for name, m in modules.items():
            g = sum(p.grad.abs().sum() for p in m.parameters() if p.grad is not None)
            assert g > 0, name
        scaler.step(opt)
        scaler.update()
        history.append(loss.detach().cpu())
    after = modules.state_dict()
    for name in ("enc.0.weight", "proj.0.weight", "pred.2.weight"):
        assert not torch.equal(before[name], after[name]), name
    print("ok: all three modules train; logged", len(history), "losses")


if __name__ == "__main__":
    main()

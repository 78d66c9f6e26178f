"""
expect: GL001 44
dynamic: confirm
source: none, invented

Semi-supervised BYOL on tabular sensor windows. The online network is a backbone, a projector
and a predictor; the target network (backbone + projector) is an EMA copy evaluated under
torch.no_grad(), and a small linear classifier on the backbone is trained on the labelled slice.
online_branch runs backbone -> projector and calls .detach() on the projection before storing it in
an embedding bank for collapse monitoring, and the same detached tensor is then fed to the
predictor. The projector's output reaches the BYOL loss only through that tensor, so the projector
gets no gradient at all while it sits in the optimizer (the backbone still trains through the
classifier, the predictor through the BYOL loss). The asserts show the projector's .grad stays None
and its weights never move; online_branch_v2, which stores a detached copy but feeds the attached
projection to the predictor, gives the projector non-zero gradients and changes its weights.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(i, h, o):
    return nn.Sequential(nn.Linear(i, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Linear(h, o))


def build_nets(in_dim=24, feat=64, proj=32, classes=3):
    online = {
        "backbone": nn.Sequential(nn.Linear(in_dim, 128), nn.ReLU(), nn.Linear(128, feat)),
        "projector": mlp(feat, 128, proj),
        "predictor": mlp(proj, 128, proj),
        "classifier": nn.Linear(feat, classes),
    }
    target = {k: copy.deepcopy(online[k]).requires_grad_(False) for k in ("backbone", "projector")}
    return online, target


def regression(p, z):
    return 2 - 2 * F.cosine_similarity(p, z, dim=-1).mean()


def online_branch(nets, view, bank):
    z = nets["projector"](nets["backbone"](view)).detach()
    bank.append(z)
    return nets["predictor"](z)


def online_branch_v2(nets, view, bank):
    z = nets["projector"](nets["backbone"](view))
    bank.append(z.detach())
    return nets["predictor"](z)


@torch.no_grad()
def ema(target, online, tau):
    for key in target:
        for pt, po in zip(target[key].parameters(), online[key].parameters()):
            pt.mul_(tau).add_(po, alpha=1 - tau)


def byol_step(online, target, opt, x_u, x_l, y_l, bank, branch, tau=0.99):
    v1 = x_u + 0.1 * torch.randn_like(x_u)
    v2 = x_u * (1 + 0.1 * torch.randn_like(x_u))
    p1, p2 = branch(online, v1, bank), branch(online, v2, bank)
    with torch.no_grad():
        t1 = target["projector"](target["backbone"](v1))
        t2 = target["projector"](target["backbone"](v2))
    loss = regression(p1, t2) + regression(p2, t1)
    loss = loss + F.cross_entropy(online["classifier"](online["backbone"](x_l)), y_l)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema(target, online, tau)
    return loss.item()


def run(branch, steps=10):
    torch.manual_seed(0)
    online, target = build_nets()
    params = [p for m in online.values() for p in m.parameters()]
    opt = torch.optim.Adam(params, lr=1e-3)
    w0 = {k: [p.detach().clone() for p in m.parameters()] for k, m in online.items()}
    bank = []
    x_u = torch.randn(128, 24)
    x_l, y_l = torch.randn(32, 24), torch.randint(0, 3, (32,))
    for _ in range(steps):
        byol_step(online, target, opt, x_u, x_l, y_l, bank, branch)
    moved = {k: any(not torch.equal(a, b) for a, b in zip(w0[k], m.parameters()))
             for k, m in online.items()}
    return online, moved, bank


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    online, moved, bank = run(online_branch)
    assert all(p.grad is None for p in online["projector"].parameters())
    assert not moved["projector"]
    assert moved["backbone"] and moved["predictor"] and moved["classifier"]
    assert len(bank) == 20

    online, moved, bank = run(online_branch_v2)
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in online["projector"].parameters())
    assert all(moved.values())
    print("byol semi-supervised: ok, bank of %d projections" % len(bank))


if __name__ == "__main__":
    main()

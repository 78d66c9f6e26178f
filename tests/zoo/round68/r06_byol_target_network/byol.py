import copy

import torch
from torch import nn
import torch.nn.functional as F


def set_requires_grad(model, flag):
    for p in model.parameters():
        p.requires_grad = flag


def regression_loss(pred, target):
    pred = F.normalize(pred, dim=-1)
    target = F.normalize(target, dim=-1)
    return 2 - 2 * (pred * target).sum(dim=-1)


class EMA:
    def __init__(self, beta):
        self.beta = beta

    def __call__(self, old, new):
        return old * self.beta + (1 - self.beta) * new


def mlp(dim, out_dim, hidden=64):
    # the ReLU works in place on the BatchNorm output; BatchNorm's backward does
    # not need its own output, so nothing saved is overwritten
    return nn.Sequential(
        nn.Linear(dim, hidden),
        nn.BatchNorm1d(hidden),
        nn.ReLU(inplace=True),
        nn.Linear(hidden, out_dim),
    )


class OnlineNetwork(nn.Module):
    def __init__(self, backbone, feat_dim, proj_dim):
        super().__init__()
        self.backbone = backbone
        self.projector = mlp(feat_dim, proj_dim)

    def forward(self, x):
        return self.projector(self.backbone(x))


class BYOL(nn.Module):
    def __init__(self, backbone, feat_dim, proj_dim=16, decay=0.9):
        super().__init__()
        self.online = OnlineNetwork(backbone, feat_dim, proj_dim)
        self.predictor = mlp(proj_dim, proj_dim)
        self.target = copy.deepcopy(self.online)
        set_requires_grad(self.target, False)
        self.ema = EMA(decay)

    @torch.no_grad()
    def update_target(self):
        for p_online, p_target in zip(self.online.parameters(), self.target.parameters()):
            p_target.data = self.ema(p_target.data, p_online.data)

    def forward(self, view_one, view_two):
        pred_one = self.predictor(self.online(view_one))
        pred_two = self.predictor(self.online(view_two))

        # stop-gradient on the target branch: this is the method, not a mistake
        with torch.no_grad():
            target_one = self.target(view_one)
            target_two = self.target(view_two)
            target_one.detach_()
            target_two.detach_()

        loss = regression_loss(pred_one, target_two) + regression_loss(pred_two, target_one)
        return loss.mean()

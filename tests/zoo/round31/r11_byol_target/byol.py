import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(i, h, o):
    return nn.Sequential(nn.Linear(i, h), nn.ReLU(), nn.Linear(h, o))


class Online(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = mlp(16, 32, 8)
        self.projector = mlp(8, 16, 8)
        self.predictor = mlp(8, 16, 8)

    def forward(self, x):
        y = self.encoder(x)
        z = self.projector(y)
        return y, z, self.predictor(z)


class BYOL(nn.Module):
    def __init__(self, tau=0.99):
        super().__init__()
        self.online = Online()
        self.target = copy.deepcopy(self.online)
        for p in self.target.parameters():
            p.requires_grad = False
        self.tau = tau

    def half_loss(self, a, b):
        _, _, h = self.online(a)
        with torch.no_grad():
            _, z_t, _ = self.target(b)
        return -2 * F.cosine_similarity(h, z_t).mean()

    def loss(self, v1, v2):
        return self.half_loss(v1, v2) + self.half_loss(v2, v1)

    @torch.no_grad()
    def update_target(self):
        for po, pt in zip(self.online.parameters(), self.target.parameters()):
            pt.mul_(self.tau).add_(po, alpha=1 - self.tau)

import numpy as np
import torch
import torch.nn as nn


class CoordMLP(nn.Module):
    """Local implicit function: (feature, relative coordinate) -> RGB."""

    def __init__(self, feat_dim, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(feat_dim + 2, hidden), nn.ReLU(), nn.Linear(hidden, 3))

    def forward(self, feat, coord):
        return self.net(torch.cat([feat, coord], dim=-1))


class ResMLPs(nn.Module):
    """Ensemble of implicit MLPs blended with learnable weights."""

    def __init__(self, feat_dim, n_mlps=3):
        super().__init__()
        self.mlps = nn.ModuleList([CoordMLP(feat_dim) for _ in range(n_mlps)])
        self.blend = nn.Parameter(torch.zeros(n_mlps))

    def forward(self, feat, coord):
        res_list = [mlp(feat, coord).cpu().detach().numpy() for mlp in self.mlps]
        mlp_res = torch.tensor(np.stack(res_list)).to(feat.device)
        w = torch.softmax(self.blend, dim=0).view(-1, 1, 1)
        return (w * mlp_res).sum(0)


class ImplicitSR(nn.Module):
    """Encoder + implicit decoder queried at continuous coordinates."""

    def __init__(self, feat_dim=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, feat_dim, 3, padding=1), nn.ReLU())
        self.decoder = ResMLPs(feat_dim)

    def forward(self, lr_img, coord):
        feat = self.encoder(lr_img)                      # B, C, H, W
        b, c, h, w = feat.shape
        feat = feat.permute(0, 2, 3, 1).reshape(b * h * w, c)
        return self.decoder(feat, coord.reshape(b * h * w, 2))

"""TensoRF-style VM-decomposed density/color field queried with grid_sample."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TensoRFField(nn.Module):
    def __init__(self, res=16, rank=4):
        super().__init__()
        self.mat_mode = [[0, 1], [0, 2], [1, 2]]
        self.vec_mode = [2, 1, 0]
        self.planes = nn.Parameter(0.1 * torch.randn(3, rank, res, res))
        self.lines = nn.Parameter(0.1 * torch.randn(3, rank, res, 1))
        self.color = nn.Linear(3 * rank, 3)

    def get_feat(self, x):
        # x: [N, 3] in [-1, 1]
        mat_coord = torch.stack([x[..., m] for m in self.mat_mode]).detach().view(3, -1, 1, 2)
        vec_coord = torch.stack([x[..., v] for v in self.vec_mode])
        vec_coord = torch.stack([torch.zeros_like(vec_coord), vec_coord], -1).detach().view(3, -1, 1, 2)
        plane = F.grid_sample(self.planes, mat_coord, align_corners=True).view(3, self.planes.shape[1], -1)
        line = F.grid_sample(self.lines, vec_coord, align_corners=True).view(3, self.lines.shape[1], -1)
        return (plane * line).permute(2, 0, 1).reshape(x.shape[0], -1)   # [N, 3*rank]

    def forward(self, x):
        feat = self.get_feat(x)
        sigma = F.softplus(feat.sum(-1))
        rgb = torch.sigmoid(self.color(feat))
        return sigma, rgb

import torch
import torch.nn as nn


class RelationNet(nn.Module):
    """Scores how strongly each point-cloud super-voxel relates to each class prototype."""

    def __init__(self, d_in=6, d=16, n_cls=4):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(d_in, d), nn.ReLU(), nn.Linear(d, d))
        self.proto = nn.Parameter(torch.randn(n_cls, d))

    def relation_logits(self, voxels):
        # reused from the pseudo-label pass, where no gradient was wanted
        with torch.no_grad():
            z = self.embed(voxels)
            logits = z @ self.proto.t()
        return logits

"""Graph-attention + temporal-conv lifting network for 2D->3D human pose (GLA-GCN style)."""
import torch
import torch.nn as nn

NUM_JOINTS = 17


def skeleton_adjacency():
    bones = [(0, 1), (1, 2), (2, 3), (0, 4), (4, 5), (5, 6), (0, 7), (7, 8), (8, 9), (9, 10),
             (8, 11), (11, 12), (12, 13), (8, 14), (14, 15), (15, 16)]
    A = torch.eye(NUM_JOINTS)
    for i, j in bones:
        A[i, j] = A[j, i] = 1.0
    return A / A.sum(1, keepdim=True)


class GraphConv(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.register_buffer("A", skeleton_adjacency())
        self.attn = nn.Parameter(torch.ones(NUM_JOINTS, NUM_JOINTS))
        self.proj = nn.Conv2d(cin, cout, 1)

    def forward(self, x):  # x: (N, C, T, V)
        x = torch.einsum("nctv,vw->nctw", x, self.A * self.attn)
        return self.proj(x)


class TemporalBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.gcn = GraphConv(channels, channels)
        self.tcn = nn.Conv2d(channels, channels, (3, 1), padding=(1, 0))
        self.bn = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()

    def forward(self, x):
        x = self.bn(self.tcn(self.gcn(x)))
        return self.relu(x)


class GLAGCN(nn.Module):
    def __init__(self, channels=16, depth=2, clone_outputs=False):
        super().__init__()
        self.embed = nn.Conv2d(2, channels, 1)
        self.blocks = nn.ModuleList(TemporalBlock(channels) for _ in range(depth))
        self.head = nn.Conv2d(channels, 3, 1)
        self.clone_outputs = clone_outputs

    def forward(self, pose2d):
        x = self.embed(pose2d)
        for block in self.blocks:
            out = block(x)
            if self.clone_outputs:
                out = out.clone()
            out += x
            x = out
        return self.head(x)

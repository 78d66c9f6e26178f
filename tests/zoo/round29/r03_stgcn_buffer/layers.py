import torch
import torch.nn as nn


def normalized_adjacency(edge_index, n):
    a = torch.eye(n)
    a[edge_index[0], edge_index[1]] = 1.0
    d = a.sum(1).rsqrt()
    return d[:, None] * a * d[None, :]


class GraphConv(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.lin = nn.Linear(c_in, c_out)

    def forward(self, x, a_hat):
        return a_hat @ self.lin(x)


class STBlock(nn.Module):
    """Temporal conv, then a graph conv applied frame by frame, written back into one buffer."""

    def __init__(self, c, kernel=3):
        super().__init__()
        self.temporal = nn.Conv2d(c, c, (1, kernel), padding=(0, kernel // 2))
        self.gconv = GraphConv(c, c)

    def forward(self, x, a_hat):
        # x: (B, C, N, T)
        t = torch.relu(self.temporal(x)).permute(0, 3, 2, 1).contiguous()  # (B, T, N, C)
        for b in range(t.size(0)):
            for k in range(t.size(1)):
                t[b][k] = self.gconv(t[b][k], a_hat)
        return t.permute(0, 3, 2, 1)

import torch
import torch.nn as nn


class ContinuousKernelConv(nn.Module):
    """Message passing whose kernel is a function of per-edge pseudo-coordinates
    (a stand-in for SplineConv: weight(u_ij) applied to x_j, summed at i)."""

    def __init__(self, in_ch, out_ch, dim=2, hidden=16):
        super().__init__()
        self.in_ch, self.out_ch = in_ch, out_ch
        self.kernel = nn.Sequential(nn.Linear(dim, hidden), nn.Tanh(), nn.Linear(hidden, in_ch * out_ch))
        self.root = nn.Linear(in_ch, out_ch)

    def forward(self, x, edge_index, pseudo):
        src, dst = edge_index
        w = self.kernel(pseudo).view(-1, self.in_ch, self.out_ch)
        msg = torch.bmm(x[src].unsqueeze(1), w).squeeze(1)
        out = torch.zeros(x.size(0), self.out_ch).index_add(0, dst, msg)
        deg = torch.zeros(x.size(0)).index_add(0, dst, torch.ones(dst.numel())).clamp_min(1)
        return out / deg.unsqueeze(1) + self.root(x)


def cartesian_pseudo(pos, edge_index):
    src, dst = edge_index
    cart = pos[dst] - pos[src]
    return cart / (2 * cart.abs().max().clamp_min(1e-6)) + 0.5

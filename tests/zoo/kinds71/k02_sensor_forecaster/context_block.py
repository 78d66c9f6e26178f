"""
expect: GL002 context_block.py:24
dynamic: confirm
source: none, invented

A context block for a multivariate sensor forecaster: it runs a GRU over the sequence and also over a
time-reversed copy, then concatenates both directions. The reversed copy is rebuilt through NumPy
(x.detach().cpu().numpy()[:, ::-1].copy() -> torch.from_numpy), which produces a fresh leaf tensor with no
history. In main.py the block is fed the output of a trainable encoder layer, so the backward direction's
contribution never reaches the encoder: the encoder only learns through the forward half. This is a bug.
"""
import torch
import torch.nn as nn


class BidirectionalContext(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fwd = nn.GRU(dim, hidden, batch_first=True)
        self.bwd = nn.GRU(dim, hidden, batch_first=True)

    def forward(self, x):
        out_f, _ = self.fwd(x)
        x_rev = torch.from_numpy(x.detach().cpu().numpy()[:, ::-1].copy()).to(x.device)
        out_b, _ = self.bwd(x_rev)
        return torch.cat([out_f, out_b], dim=-1)

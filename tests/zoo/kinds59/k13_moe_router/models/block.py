import torch
import torch.nn as nn
import torch.nn.functional as F


class MoEBlock(nn.Module):
    """Soft mixture of small MLP experts with a learned router."""

    def __init__(self, d_in, d_out, n_experts=4, hidden=32):
        super().__init__()
        self.router = nn.Linear(d_in, n_experts)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, d_out))
            for _ in range(n_experts)
        )

    def route(self, x):
        gates = F.softmax(self.router(x), dim=-1)
        return gates.detach()

    def forward(self, x):
        gates = self.route(x)
        outs = torch.stack([e(x) for e in self.experts], dim=1)
        return (gates.unsqueeze(-1) * outs).sum(dim=1)

"""Vector quantizer used by the latent-action model (see main.py)."""
import torch
import torch.nn as nn


class CodebookQuantizer(nn.Module):
    def __init__(self, num_codes=16, dim=8):
        super().__init__()
        self.codebook = nn.Embedding(num_codes, dim)
        nn.init.uniform_(self.codebook.weight, -1.0, 1.0)

    def forward(self, x):
        # nearest code for every latent vector
        dists = torch.cdist(x, self.codebook.weight)
        indices = dists.argmin(dim=-1)
        z = self.codebook(indices)
        # straight-through estimator: value of z, gradient of x
        z_q = x + (z - x).detach()
        return z_q, z, x, indices

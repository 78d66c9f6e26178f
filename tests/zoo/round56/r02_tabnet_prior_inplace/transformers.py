import torch
import torch.nn as nn


def sparsemax(z, dim=-1):
    """Sparsemax (Martins & Astudillo 2016) written with plain autograd ops."""
    zs, _ = torch.sort(z, dim=dim, descending=True)
    k = torch.arange(1, z.size(dim) + 1, dtype=z.dtype, device=z.device)
    shape = [1] * z.dim()
    shape[dim] = -1
    k = k.view(shape)
    cssv = zs.cumsum(dim)
    support = (1 + k * zs) > cssv
    k_z = support.sum(dim=dim, keepdim=True)
    tau = (cssv.gather(dim, k_z - 1) - 1) / k_z.to(z.dtype)
    return torch.clamp(z - tau, min=0)


class AttentiveTransformer(nn.Module):
    """Produces the feature mask of one decision step and the new prior scale."""

    def __init__(self, n_features, gamma=1.3, inplace_prior=True):
        super().__init__()
        self.fc = nn.Linear(n_features, n_features, bias=False)
        self.bn = nn.BatchNorm1d(n_features)
        self.gamma = gamma
        self.inplace_prior = inplace_prior

    def update_prior(self, prior, mask):
        relax = self.gamma - mask
        if self.inplace_prior:
            prior *= relax
        else:
            prior = prior * relax
        return prior

    def forward(self, a, prior):
        a = self.bn(self.fc(a))
        a = prior * a
        mask = sparsemax(a, dim=-1)
        prior = self.update_prior(prior, mask)
        return mask, prior


class FeatureTransformer(nn.Module):
    def __init__(self, n_features, n_hidden):
        super().__init__()
        self.fc = nn.Linear(n_features, 2 * n_hidden)
        self.bn = nn.BatchNorm1d(2 * n_hidden)

    def forward(self, x):
        return nn.functional.glu(self.bn(self.fc(x)), dim=-1)

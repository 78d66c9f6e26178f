"""Second-order (covariance) pooling with a Newton-Schulz matrix square root, MPN-COV style."""
import torch
import torch.nn as nn


def newton_schulz_sqrt(a, iters=5):
    b, d, _ = a.shape
    norm = a.reshape(b, -1).norm(dim=1).view(b, 1, 1)
    y = a / norm
    eye = torch.eye(d).expand(b, d, d)
    z = eye.clone()
    for _ in range(iters):
        t = 0.5 * (3.0 * eye - z @ y)
        y, z = y @ t, t @ z
    return y * norm.sqrt()


class CovPool(nn.Module):
    def forward(self, feats):
        # feats: (batch, channels, positions)
        centered = feats - feats.mean(dim=2, keepdim=True)
        cov = centered @ centered.transpose(1, 2) / feats.shape[2]
        root = newton_schulz_sqrt(cov + 1e-4 * torch.eye(cov.shape[1]))
        iu = torch.triu_indices(root.shape[1], root.shape[1])
        pooled = root[:, iu[0], iu[1]]
        pooled = pooled.detach().requires_grad_(True)
        return pooled

"""Minimal hypergraph structure with k-NN construction from vertex features (HGNN smoothing)."""
import numpy as np
import torch


class Hypergraph:
    def __init__(self, num_v, e_list):
        self.num_v, self.num_e = num_v, len(e_list)
        H = torch.zeros(num_v, self.num_e)
        for j, edge in enumerate(e_list):
            H[list(edge), j] = 1.0
        self.H = H

    @staticmethod
    def from_feature_kNN(features: torch.Tensor, k: int):
        feats = features.detach().cpu().numpy()
        dist = ((feats[:, None, :] - feats[None, :, :]) ** 2).sum(-1)
        nbr = np.argsort(dist, axis=1)[:, :k]
        e_list = sorted({tuple(sorted(row.tolist())) for row in nbr})
        return Hypergraph(feats.shape[0], e_list)

    def smoothing_with_HGNN(self, X):
        d_v = self.H.sum(1).clamp(min=1)
        d_e = self.H.sum(0).clamp(min=1)
        X = X / d_v.sqrt().unsqueeze(1)
        X = self.H @ ((self.H.t() @ X) / d_e.unsqueeze(1))
        return X / d_v.sqrt().unsqueeze(1)

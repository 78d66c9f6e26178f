import torch
import torch.nn as nn
import torch.nn.functional as F


class SparseAutoencoder(nn.Module):
    """Dictionary learner whose decoder rows are kept at unit norm."""

    def __init__(self, d_in=10, n_dict=24):
        super().__init__()
        self.encoder = nn.Linear(d_in, n_dict)
        self.dict_elements = nn.Parameter(torch.randn(n_dict, d_in))

    def renorm_decoder(self):
        norms = self.dict_elements.data.norm(dim=1, keepdim=True)
        self.dict_elements.data.div_(norms)

    def forward(self, x):
        c = F.relu(self.encoder(x))
        x_hat = c @ self.dict_elements
        self.renorm_decoder()
        return x_hat, c


def sae_loss(x, x_hat, c, l1=1e-2):
    return F.mse_loss(x_hat, x) + l1 * c.abs().sum(-1).mean()

"""
expect: GL002 gmm.py:39, GL001 gmm.py:26, GL001 gmm.py:27, GL001 gmm.py:28
dynamic: confirm
source: https://github.com/RomainSabathe/dagmm/blob/a3bc1c0a5a95935420c47678aa8931fadddacb5a/gmm.py

A DAGMM anomaly detector for tabular rows: an autoencoder compresses each row, the code plus two
reconstruction-error features go to an estimation network that outputs mixture memberships, the
memberships set the mixture weights, means and covariances, and the sample energy (negative log
density) is added to the reconstruction loss. In the GMM module each mixture's density is turned into
Python floats and rebuilt with torch.tensor, so the energy term is a constant; and the mixture
parameters computed from the memberships are written into frozen Parameters through `.data`, so even
with the density kept in the graph the estimation network can never receive a gradient from the
energy. The asserts show the estimator getting no gradient with both defects, still none with only
the rebuild fixed, and a real gradient when the parameters stay in the graph.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

from gmm import GMM

warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad")


class DAGMM(nn.Module):
    def __init__(self, n_features, **gmm_flags):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_features, 8), nn.Tanh(), nn.Linear(8, 2))
        self.decoder = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, n_features))
        self.estimator = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2), nn.Softmax(dim=1))
        self.gmm = GMM(2, 4, **gmm_flags)

    def forward(self, x):
        code = self.encoder(x)
        recon = self.decoder(code)
        rel_dist = (x - recon).norm(dim=1) / x.norm(dim=1).clamp_min(1e-6)
        cos = F.cosine_similarity(x, recon, dim=1)
        latent = torch.cat([code, rel_dist[:, None], cos[:, None]], dim=1)
        gamma = self.estimator(latent)
        self.gmm.update(latent, gamma)
        return recon, self.gmm(latent)


def estimator_grad_after_step(flags, x, lambda_energy=0.1):
    torch.manual_seed(3)
    model = DAGMM(x.shape[1], **flags)
    recon, energy = model(x)
    loss = F.mse_loss(recon, x) + lambda_energy * energy.mean()
    loss.backward()
    grads = [p.grad for p in model.estimator.parameters()]
    if any(g is None for g in grads):
        return None
    return sum(g.abs().sum() for g in grads).item()


torch.manual_seed(0)
torch.set_num_threads(1)
rows = torch.randn(32, 10)

both_defects = estimator_grad_after_step(dict(rebuild_density=True, cut_update=True), rows)
only_data_cut = estimator_grad_after_step(dict(rebuild_density=False, cut_update=True), rows)
intended = estimator_grad_after_step(dict(rebuild_density=False, cut_update=False), rows)

assert both_defects is None, "rebuilt energy: the estimation network gets no gradient"
assert only_data_cut is None, ".data-set mixture parameters: still no gradient to the estimator"
assert intended is not None and intended > 0
print("estimator grad: buggy=%s, .data cut=%s, intended=%.4f" % (both_defects, only_data_cut, intended))

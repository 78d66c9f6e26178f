"""
expect: GL002 42, GL002 46
dynamic: confirm
source: https://github.com/KDD-OpenSource/DeepADoTS/blob/88c38320141a1062301cc9255f3e0fc111f55e80/src/algorithms/dagmm.py

DAGMM for multivariate time-series windows: an autoencoder plus an estimation network give memberships
gamma, from which the mixture weights, means and covariances are computed in torch, and the sample
energy is added to the loss. To get a stable inverse and determinant, the energy code takes each
covariance out to NumPy (`np.linalg.pinv(cov.data.numpy())`, eigenvalues for the determinant) and wraps
the results back into tensors. Those rebuilt inverse and determinant are constants, so the energy term
silently loses its whole dependence on the covariance: the estimation network is trained only through
the weights and means. The asserts show the energy has no gradient path to the covariance, that the
estimator's gradient is exactly what a torch version with a detached covariance gives, and that the
intended all-torch energy gives a different gradient.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable


def gmm_params(z, gamma):
    sum_gamma = gamma.sum(0)
    phi = sum_gamma / gamma.shape[0]
    mu = (gamma.unsqueeze(-1) * z.unsqueeze(1)).sum(0) / sum_gamma.unsqueeze(-1)
    z_mu = z.unsqueeze(1) - mu.unsqueeze(0)
    outer = z_mu.unsqueeze(-1) * z_mu.unsqueeze(-2)
    cov = (gamma.unsqueeze(-1).unsqueeze(-1) * outer).sum(0) / sum_gamma.unsqueeze(-1).unsqueeze(-1)
    return phi, mu, cov


class EnergyNumpy:
    """Energy as written in the source: inverse and determinant via NumPy."""

    def __call__(self, z, phi, mu, cov):
        k, d, _ = cov.shape
        z_mu = z.unsqueeze(1) - mu.unsqueeze(0)
        cov_inverse, det_cov = [], []
        for i in range(k):
            cov_k = cov[i] + torch.eye(d, dtype=cov.dtype) * 1e-6
            pinv = np.linalg.pinv(cov_k.data.numpy())
            cov_inverse.append(Variable(torch.from_numpy(pinv)).unsqueeze(0))
            eigvals = np.linalg.eigvals(cov_k.data.numpy() * (2 * np.pi))
            det_cov.append(np.prod(np.clip(eigvals.real, a_min=1e-12, a_max=None)))
        cov_inverse = torch.cat(cov_inverse, dim=0)
        det_cov = Variable(torch.from_numpy(np.array(det_cov)))
        return _energy(z_mu, phi, cov_inverse, det_cov)


class EnergyTorch:
    def __init__(self, detach_cov=False):
        self.detach_cov = detach_cov

    def __call__(self, z, phi, mu, cov):
        d = cov.shape[-1]
        cov = cov.detach() if self.detach_cov else cov
        cov = cov + torch.eye(d, dtype=cov.dtype) * 1e-6
        z_mu = z.unsqueeze(1) - mu.unsqueeze(0)
        return _energy(z_mu, phi, torch.linalg.pinv(cov), torch.linalg.det(2 * np.pi * cov))


def _energy(z_mu, phi, cov_inverse, det_cov):
    exp_term = -0.5 * ((z_mu.unsqueeze(-1) * cov_inverse.unsqueeze(0)).sum(-2) * z_mu).sum(-1)
    max_val = exp_term.clamp(min=0).max(dim=1, keepdim=True)[0]
    weighted = phi.unsqueeze(0) * torch.exp(exp_term - max_val) / torch.sqrt(det_cov).unsqueeze(0)
    return (-max_val.squeeze(1) - torch.log(weighted.sum(1) + 1e-12)).mean()


class WindowDAGMM(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_in, 16), nn.Tanh(), nn.Linear(16, 2))
        self.decoder = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, n_in))
        self.estimation = nn.Sequential(nn.Linear(4, 10), nn.Tanh(), nn.Linear(10, 3), nn.Softmax(dim=1))

    def forward(self, x):
        enc = self.encoder(x)
        dec = self.decoder(enc)
        rec_cos = nn.functional.cosine_similarity(x, dec, dim=1)
        rec_euc = (x - dec).norm(dim=1) / x.norm(dim=1)
        z = torch.cat([enc, rec_euc.unsqueeze(-1), rec_cos.unsqueeze(-1)], dim=1)
        return z, self.estimation(z)


def estimator_grad(energy_fn, windows):
    torch.manual_seed(4)
    model = WindowDAGMM(windows.shape[1]).double()
    z, gamma = model(windows)
    phi, mu, cov = gmm_params(z, gamma)
    energy = energy_fn(z, phi, mu, cov)
    to_cov = torch.autograd.grad(energy, cov, retain_graph=True, allow_unused=True)[0]
    energy.backward()
    return to_cov, torch.cat([p.grad.flatten() for p in model.estimation.parameters()])


torch.manual_seed(0)
torch.set_num_threads(1)
windows = torch.randn(48, 12, dtype=torch.float64)

cov_grad_np, g_numpy = estimator_grad(EnergyNumpy(), windows)
cov_grad_t, g_torch = estimator_grad(EnergyTorch(), windows)
_, g_torch_detached = estimator_grad(EnergyTorch(detach_cov=True), windows)

assert cov_grad_np is None, "the energy has no gradient path to the covariance"
assert cov_grad_t is not None and cov_grad_t.abs().sum() > 0
assert torch.allclose(g_numpy, g_torch_detached, atol=1e-8), "same as a torch energy with cov detached"
assert not torch.allclose(g_numpy, g_torch, atol=1e-6), "the covariance contribution is missing"
print("estimator grad differs from the intended one by %.2e" % (g_numpy - g_torch).abs().max().item())

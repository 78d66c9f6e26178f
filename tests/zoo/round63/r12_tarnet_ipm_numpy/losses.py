"""Loss functions for TARNet / CFR style uplift models (outcome + IPM balance term)."""
import numpy as np
import torch


def wasserstein_1d(u, v):
    """1-D Wasserstein-1 distance between two samples (same result as scipy's)."""
    u = np.sort(np.asarray(u, dtype=np.float64))
    v = np.sort(np.asarray(v, dtype=np.float64))
    allv = np.sort(np.concatenate([u, v]))
    deltas = np.diff(allv)
    u_cdf = np.searchsorted(u, allv[:-1], side="right") / u.size
    v_cdf = np.searchsorted(v, allv[:-1], side="right") / v.size
    return float(np.sum(np.abs(u_cdf - v_cdf) * deltas))


def outcome_loss(y_preds, t_true, y_true):
    n0 = torch.sum(1.0 - t_true)
    n1 = torch.sum(t_true)
    loss0 = torch.sum((1.0 - t_true) * torch.square(y_true - y_preds[0]))
    loss1 = torch.sum(t_true * torch.square(y_true - y_preds[1]))
    return loss0 / (n0 + 1e-8) + loss1 / (n1 + 1e-8)


def tarnet_loss(y_preds, t_true, y_true, phi_x, alpha=1.0, ipm=True):
    out_loss = outcome_loss(y_preds, t_true, y_true)
    if not ipm:
        return out_loss, out_loss, 0.0
    treated = (t_true.view(-1) == 1).numpy()
    rep = phi_x.detach().cpu().numpy()
    ipm_loss = 0.0
    if treated.any() and (~treated).any():
        for dim in range(rep.shape[1]):
            ipm_loss += wasserstein_1d(rep[treated, dim], rep[~treated, dim])
        ipm_loss /= rep.shape[1]
    loss = out_loss + alpha * ipm_loss
    return loss, out_loss, ipm_loss


def wasserstein_1d_torch(u, v, n_q=32):
    q = torch.linspace(0.0, 1.0, n_q)
    return torch.mean(torch.abs(torch.quantile(u, q) - torch.quantile(v, q)))


def tarnet_loss_fixed(y_preds, t_true, y_true, phi_x, alpha=1.0, ipm=True):
    out_loss = outcome_loss(y_preds, t_true, y_true)
    if not ipm:
        return out_loss, out_loss, 0.0
    treated = t_true.view(-1) == 1
    rep_t, rep_c = phi_x[treated], phi_x[~treated]
    ipm_loss = sum(wasserstein_1d_torch(rep_t[:, d], rep_c[:, d])
                   for d in range(phi_x.shape[1])) / phi_x.shape[1]
    loss = out_loss + alpha * ipm_loss
    return loss, out_loss, ipm_loss

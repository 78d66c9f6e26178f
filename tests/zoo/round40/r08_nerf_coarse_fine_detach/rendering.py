"""Volume rendering with hierarchical sampling: coarse pass, inverse-CDF resampling, fine pass."""
import torch


def sample_pdf(bins, weights, n_importance, eps=1e-5):
    n_rays, n_bins = weights.shape
    weights = weights + eps  # not in place
    pdf = weights / weights.sum(-1, keepdim=True)
    cdf = torch.cumsum(pdf, -1)
    cdf = torch.cat([torch.zeros_like(cdf[:, :1]), cdf], -1)
    u = torch.rand(n_rays, n_importance).contiguous()
    inds = torch.searchsorted(cdf, u, right=True)
    below = torch.clamp_min(inds - 1, 0)
    above = torch.clamp_max(inds, n_bins)
    inds_g = torch.stack([below, above], -1).view(n_rays, 2 * n_importance)
    cdf_g = torch.gather(cdf, 1, inds_g).view(n_rays, n_importance, 2)
    bins_g = torch.gather(bins, 1, inds_g).view(n_rays, n_importance, 2)
    denom = cdf_g[..., 1] - cdf_g[..., 0]
    denom[denom < eps] = 1
    return bins_g[..., 0] + (u - cdf_g[..., 0]) / denom * (bins_g[..., 1] - bins_g[..., 0])


def composite(model, rays_o, rays_d, z_vals):
    xyz = rays_o.unsqueeze(1) + rays_d.unsqueeze(1) * z_vals.unsqueeze(-1)
    out = model(xyz)
    rgbs, sigmas = torch.sigmoid(out[..., :3]), torch.relu(out[..., 3])
    deltas = z_vals[:, 1:] - z_vals[:, :-1]
    deltas = torch.cat([deltas, 1e2 * torch.ones_like(deltas[:, :1])], -1)
    alphas = 1 - torch.exp(-deltas * sigmas)
    alphas_shifted = torch.cat([torch.ones_like(alphas[:, :1]), 1 - alphas + 1e-10], -1)
    weights = alphas * torch.cumprod(alphas_shifted, -1)[:, :-1]
    rgb = (weights.unsqueeze(-1) * rgbs).sum(1)
    return rgb, weights


def render_rays(models, rays_o, rays_d, near=2.0, far=6.0, n_samples=32, n_importance=32):
    n_rays = rays_o.shape[0]
    steps = torch.linspace(0, 1, n_samples)
    z_vals = (near * (1 - steps) + far * steps).expand(n_rays, n_samples)
    mids = 0.5 * (z_vals[:, :-1] + z_vals[:, 1:])
    upper = torch.cat([mids, z_vals[:, -1:]], -1)
    lower = torch.cat([z_vals[:, :1], mids], -1)
    z_vals = lower + (upper - lower) * torch.rand_like(z_vals)

    results = {}
    results["rgb_coarse"], weights_coarse = composite(models["coarse"], rays_o, rays_d, z_vals)

    mids = 0.5 * (z_vals[:, :-1] + z_vals[:, 1:])
    z_new = sample_pdf(mids, weights_coarse[:, 1:-1].detach(), n_importance)
    z_all = torch.sort(torch.cat([z_vals, z_new], -1), -1)[0]
    results["rgb_fine"], _ = composite(models["fine"], rays_o, rays_d, z_all)
    return results

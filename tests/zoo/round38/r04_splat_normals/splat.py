import torch
import torch.nn as nn


def composite(means, log_scales, opacities, feats, pix):
    """Front-to-back alpha compositing of isotropic 2D Gaussians sorted by index."""
    d2 = ((pix[:, None, :] - means[None, :, :]) ** 2).sum(-1)          # P x N
    alpha = opacities[None, :] * torch.exp(-0.5 * d2 / torch.exp(log_scales)[None, :] ** 2)
    alpha = alpha.clamp(max=0.99)
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]), 1 - alpha[:, :-1]], 1), 1)
    w = alpha * trans                                                    # P x N
    return w @ feats


class SplatModel(nn.Module):
    def __init__(self, n=24, detach_geometry_for_normals=True):
        super().__init__()
        self.means = nn.Parameter(torch.rand(n, 2))
        self.log_scales = nn.Parameter(torch.full((n,), -2.0))
        self.opacity_logits = nn.Parameter(torch.zeros(n))
        self.colors = nn.Parameter(torch.rand(n, 3))
        self.normals = nn.Parameter(torch.randn(n, 3))
        self.detach_geometry_for_normals = detach_geometry_for_normals

    def render(self, pix):
        opac = torch.sigmoid(self.opacity_logits)
        rgb = composite(self.means, self.log_scales, opac, self.colors, pix)
        nrm = torch.nn.functional.normalize(self.normals, dim=-1)
        if self.detach_geometry_for_normals:
            # second pass for the normal map reuses the geometry without its graph
            normal_map = composite(self.means.detach(), self.log_scales.detach(),
                                   opac.detach(), nrm, pix)
        else:
            normal_map = composite(self.means, self.log_scales, opac, nrm, pix)
        return rgb, normal_map

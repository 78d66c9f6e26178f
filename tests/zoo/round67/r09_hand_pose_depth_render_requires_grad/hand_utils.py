"""Hand model helpers: a linear MANO-like mesh, a depth renderer and a joint-limit prior."""
import numpy as np
import torch

IMG = 16


class LinearHand:
    """verts = template + pose_basis @ ang  (a stand-in for the MANO layer)."""

    def __init__(self, n_verts=40, n_ang=6, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.template = torch.rand(n_verts, 3, generator=g) * torch.tensor([1.0, 1.0, 0.5]) + \
            torch.tensor([0.0, 0.0, 0.5])
        self.basis = 0.15 * torch.randn(n_ang, n_verts, 3, generator=g)
        self.ang_limit = 1.0

    def forward(self, ang):
        return self.template + torch.einsum('ba,avc->bvc', ang, self.basis)


def _grid():
    ys, xs = np.meshgrid(np.linspace(0, 1, IMG), np.linspace(0, 1, IMG), indexing='ij')
    return np.stack([xs, ys], -1).reshape(-1, 2)


class Mano2depth:
    """Renders each predicted mesh to a depth map (the original goes through Open3D)."""

    def __init__(self, verts, sigma=0.08):
        self.verts = verts
        self.sigma = sigma

    def mesh2depth(self):
        depths = []
        pix = _grid()
        for vert in self.verts:
            vert = vert.detach().cpu().numpy()
            d2 = ((pix[:, None, :] - vert[None, :, :2]) ** 2).sum(-1)
            w = np.exp(-d2 / self.sigma ** 2)
            depth = (w * vert[None, :, 2]).sum(1) / (w.sum(1) + 1e-6)
            depths.append(depth.reshape(IMG, IMG))
        return torch.FloatTensor(np.asarray(depths))


def mesh2depth_torch(verts, sigma=0.08):
    """Same renderer written with torch ops, so it is differentiable."""
    pix = torch.from_numpy(_grid()).float()
    d2 = ((pix[None, :, None, :] - verts[:, None, :, :2]) ** 2).sum(-1)
    w = torch.exp(-d2 / sigma ** 2)
    depth = (w * verts[:, None, :, 2]).sum(2) / (w.sum(2) + 1e-6)
    return depth.view(-1, IMG, IMG)


def regularizer_loss(ang, limit):
    ang = ang.detach().cpu()
    limits = []
    for i in range(ang.shape[0]):
        limits.append(torch.clamp(ang[i].abs() - limit, min=0).pow(2).sum())
    return np.mean(np.asarray(limits))


def regularizer_loss_torch(ang, limit):
    return torch.clamp(ang.abs() - limit, min=0).pow(2).sum(1).mean()

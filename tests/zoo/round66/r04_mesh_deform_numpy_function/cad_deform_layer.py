"""Deformation energy for fitting a CAD template mesh to a target surface.

The distance-field term and the edge-preservation term are evaluated in NumPy (in the
original project they come from a C++ extension), so the op is wrapped in an
autograd.Function that supplies its own analytic backward."""
import numpy as np
import torch
from torch import nn
from torch.autograd import Function


class SphereDistanceField:
    """Stand-in for the voxelised distance field of the target: a sphere."""

    def __init__(self, center, radius):
        self.center = np.asarray(center, dtype=np.float64)
        self.radius = float(radius)

    def loss(self, verts):
        r = np.linalg.norm(verts - self.center, axis=1)
        return (r - self.radius) ** 2

    def grad(self, verts):
        d = verts - self.center
        r = np.linalg.norm(d, axis=1, keepdims=True)
        return 2.0 * (r - self.radius) * d / np.maximum(r, 1e-12)


def edge_loss_forward(verts, edges, rest_len):
    diff = verts[edges[:, 0]] - verts[edges[:, 1]]
    length = np.linalg.norm(diff, axis=1)
    return (length - rest_len) ** 2


def edge_loss_backward(verts, edges, rest_len):
    diff = verts[edges[:, 0]] - verts[edges[:, 1]]
    length = np.linalg.norm(diff, axis=1, keepdims=True)
    g = 2.0 * (length - rest_len[:, None]) * diff / np.maximum(length, 1e-12)
    out = np.zeros_like(verts)
    np.add.at(out, edges[:, 0], g)
    np.add.at(out, edges[:, 1], -g)
    return out


class CadDeformFunction(Function):
    @staticmethod
    def forward(ctx, verts, edges, rest_len, field, edge_weight):
        v = verts.detach().cpu().numpy()
        e = edges.cpu().numpy()
        r = rest_len.cpu().numpy()
        loss_d = field.loss(v).sum()
        loss_r = edge_loss_forward(v, e, r).sum()
        ctx.save_for_backward(verts, edges, rest_len)
        ctx.field = field
        ctx.edge_weight = edge_weight
        return torch.tensor(loss_d + edge_weight * loss_r, dtype=verts.dtype)

    @staticmethod
    def backward(ctx, grad_out):
        verts, edges, rest_len = ctx.saved_tensors
        v = verts.detach().cpu().numpy()
        g = ctx.field.grad(v) + ctx.edge_weight * edge_loss_backward(
            v, edges.cpu().numpy(), rest_len.cpu().numpy())
        return grad_out * torch.from_numpy(g).to(verts.dtype), None, None, None, None


class CadDeformLayer(nn.Module):
    def __init__(self, template_verts, edges, field, edge_weight=0.5):
        super().__init__()
        self.register_buffer("edges", edges)
        d = template_verts[edges[:, 0]] - template_verts[edges[:, 1]]
        self.register_buffer("rest_len", d.norm(dim=1))
        self.field = field
        self.edge_weight = edge_weight

    def forward(self, verts):
        return CadDeformFunction.apply(verts, self.edges, self.rest_len, self.field, self.edge_weight)

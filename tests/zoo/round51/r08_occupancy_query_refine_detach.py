"""
expect: none
dynamic: dismiss
source: https://github.com/MCG-NJU/SparseOcc/issues/65

A sparse occupancy decoder refines a set of query points layer by layer: each layer attends from the queries to the
encoded LiDAR points, predicts an offset for every query point and a per-query occupancy score, and every layer
has its own loss (deep supervision). Between layers the query points and query features are detached, as in
SparseOcc; the maintainer's answer in the issue is that this is on purpose, to keep each layer's loss from
propagating into the previous decoder layer. The detach looks like a cut path but every layer and the point
encoder still receive gradients from their own losses. The asserts check that all layers and the encoder get
non-zero gradients, that the last layer's loss does not reach the first layer (the intended isolation), and that
training brings the refined points closer to the ground-truth occupied voxels.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class PointEncoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, pts):
        return self.mlp(pts)


class RefineLayer(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.pos = nn.Linear(3, dim)
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.offset = nn.Linear(dim, 3)
        self.occ = nn.Linear(dim, 1)

    def forward(self, q_feat, q_pts, scene_feat, scene_pts):
        q = self.q(q_feat + self.pos(q_pts))
        k, v = self.kv(scene_feat + self.pos(scene_pts)).chunk(2, dim=-1)
        attn = torch.softmax(q @ k.t() / q.shape[-1] ** 0.5, dim=-1)
        q_feat = q_feat + attn @ v
        q_pts = q_pts + 0.3 * torch.tanh(self.offset(q_feat))
        return q_feat, q_pts, self.occ(q_feat).squeeze(-1)


class OccupancyDecoder(nn.Module):
    def __init__(self, n_queries=24, dim=16, n_layers=3):
        super().__init__()
        self.encoder = PointEncoder(dim)
        self.query_feat = nn.Parameter(torch.randn(n_queries, dim) * 0.1)
        self.query_pts = nn.Parameter(torch.rand(n_queries, 3))
        self.layers = nn.ModuleList(RefineLayer(dim) for _ in range(n_layers))

    def forward(self, scene_pts):
        scene_feat = self.encoder(scene_pts)
        q_feat, q_pts = self.query_feat, self.query_pts
        outputs = []
        for layer in self.layers:
            q_feat, q_pts, occ = layer(q_feat, q_pts, scene_feat, scene_pts)
            outputs.append((q_pts, occ))
            q_pts = q_pts.detach()
            q_feat = q_feat.detach()
        return outputs


def chamfer(a, b):
    d = torch.cdist(a, b)
    return d.min(dim=1).values.mean() + d.min(dim=0).values.mean()


def layer_losses(outputs, gt_occupied):
    losses = []
    for q_pts, occ in outputs:
        near = (torch.cdist(q_pts, gt_occupied).min(dim=1).values < 0.15).float()
        losses.append(chamfer(q_pts, gt_occupied) + F.binary_cross_entropy_with_logits(occ, near))
    return losses


scene_pts = torch.rand(64, 3)
gt_occupied = torch.rand(20, 3) * 0.5 + 0.25

model = OccupancyDecoder()
losses = layer_losses(model(scene_pts), gt_occupied)
first_layer = list(model.layers[0].parameters())
from_last = torch.autograd.grad(losses[-1], first_layer, retain_graph=True, allow_unused=True)
assert all(g is None for g in from_last)
enc_from_last = torch.autograd.grad(losses[-1], list(model.encoder.parameters()), retain_graph=True)
assert any(g.abs().sum() > 0 for g in enc_from_last)
sum(losses).backward()
for layer in model.layers:
    assert layer.offset.weight.grad is not None and layer.offset.weight.grad.abs().sum() > 0
assert model.encoder.mlp[0].weight.grad.abs().sum() > 0
print("every layer and the encoder receive gradients; last-layer loss stops at its own layer")

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
start = chamfer(model(scene_pts)[-1][0], gt_occupied).item()
for _ in range(60):
    loss = sum(layer_losses(model(scene_pts), gt_occupied))
    opt.zero_grad()
    loss.backward()
    opt.step()
end = chamfer(model(scene_pts)[-1][0], gt_occupied).item()
print("final-layer chamfer:", round(start, 4), "->", round(end, 4))
assert end < start
print("ok")

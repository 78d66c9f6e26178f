"""
expect: GL005 encoder.py:29
dynamic: confirm
source: https://github.com/nv-tlabs/XCube/issues/33

A sparse-voxel shape autoencoder in the style of a 3D generative model: the encoder
(encoder.py) splats the input point normals onto voxel centres with a learnable Gaussian kernel,
normalises the splatted normals, and mixes them with a positional embedding; a small decoder
predicts per-voxel occupancy. The normalisation is written in place (normal /= normal.norm(...)),
but norm() saved the un-normalised tensor for its backward, so the in-place division bumps its
version and loss.backward() raises "modified by an inplace operation". The asserts catch that
RuntimeError for the in-place encoder and show that the out-of-place division trains: the
kernel width and the mixing layer receive gradients and the loss decreases.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from encoder import VoxelEncoder

torch.manual_seed(0)
torch.set_num_threads(1)

points = torch.rand(128, 3) * 2 - 1
normals = F.normalize(points + 0.1 * torch.randn(128, 3), dim=1)
g = torch.linspace(-1, 1, 6)
voxel_xyz = torch.stack(torch.meshgrid(g, g, g, indexing="ij"), dim=-1).reshape(-1, 3)
occupancy = (voxel_xyz.norm(dim=1) < 0.8).float()


def build(normalize_inplace):
    torch.manual_seed(2)
    enc = VoxelEncoder(normalize_inplace=normalize_inplace)
    dec = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))
    return enc, dec


def step(enc, dec, opt):
    opt.zero_grad()
    logits = dec(enc(voxel_xyz, points, normals)).squeeze(1)
    loss = F.binary_cross_entropy_with_logits(logits, occupancy)
    loss.backward()
    opt.step()
    return loss.item()


enc, dec = build(normalize_inplace=True)
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-2)
try:
    step(enc, dec, opt)
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised, raised
assert enc.log_bandwidth.grad is None, "no gradient reached the encoder"

enc, dec = build(normalize_inplace=False)
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-2)
first = step(enc, dec, opt)
assert enc.log_bandwidth.grad is not None and enc.log_bandwidth.grad.abs() > 0
assert enc.mix_fc.weight.grad.abs().sum() > 0
for _ in range(100):
    last = step(enc, dec, opt)
assert last < 0.7 * first, (first, last)
print("in-place normalisation raises; out-of-place trains %.3f -> %.3f" % (first, last))

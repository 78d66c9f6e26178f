"""
expect: none
dynamic: dismiss
source: https://github.com/hjwdzh/MeshODE/blob/e95085711ad5b5603a2fca0c7e346d09c4f4e767/src/python/layers/cad_deform_layer.py

3-D mesh reconstruction by deforming a CAD template onto a target shape (MeshODE-style).
The deformation energy (distance to the target surface plus an edge-length preservation
term) is computed outside autograd, in NumPy, and its result is rebuilt with
`torch.tensor(...)` / `torch.from_numpy(...)`. Done in a training loop that would sever the
graph, but here it happens inside `CadDeformFunction`, a `torch.autograd.Function` whose
static `backward` returns the analytic gradient for the vertices, so autograd still
connects the loss to the optimized vertices. This is correct. The asserts run
`torch.autograd.gradcheck` on the Function (double precision), check that the vertices get a
non-zero gradient, and show that Adam on the vertices drives the energy down and pulls the
template onto the target sphere.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch

from cad_deform_layer import CadDeformFunction, CadDeformLayer, SphereDistanceField

torch.manual_seed(0)
torch.set_num_threads(1)


def box_template():
    """A unit-ish cube mesh: 8 corners plus face centers, edges from a fixed connectivity."""
    corners = torch.tensor([[x, y, z] for x in (-0.6, 0.6) for y in (-0.6, 0.6) for z in (-0.6, 0.6)],
                           dtype=torch.float64)
    faces_c = torch.tensor([[0.6, 0, 0], [-0.6, 0, 0], [0, 0.6, 0], [0, -0.6, 0], [0, 0, 0.6], [0, 0, -0.6]],
                           dtype=torch.float64)
    verts = torch.cat([corners, faces_c])
    edges = []
    for i in range(8):
        for j in range(i + 1, 8):
            if (corners[i] - corners[j]).abs().gt(1e-9).sum() == 1:
                edges.append((i, j))
    for f in range(6):
        c = faces_c[f]
        axis = int(c.abs().argmax())
        for i in range(8):
            if torch.isclose(corners[i, axis], c[axis]):
                edges.append((8 + f, i))
    return verts, torch.tensor(edges, dtype=torch.long)


def main():
    template, edges = box_template()
    field = SphereDistanceField(center=[0.1, 0.0, -0.1], radius=1.0)
    layer = CadDeformLayer(template, edges, field)

    # the hand-written backward agrees with finite differences
    probe = (template + 0.05 * torch.randn_like(template)).requires_grad_(True)
    assert torch.autograd.gradcheck(
        lambda v: CadDeformFunction.apply(v, layer.edges, layer.rest_len, field, 0.5), (probe,))

    verts = template.clone().requires_grad_(True)
    opt = torch.optim.Adam([verts], lr=0.02)
    energy0 = layer(verts).item()
    for it in range(300):
        opt.zero_grad()
        energy = layer(verts)
        energy.backward()
        if it == 0:
            assert verts.grad is not None and verts.grad.abs().sum() > 0
        opt.step()
    energy1 = layer(verts).item()
    dist = (verts.detach() - torch.tensor([0.1, 0.0, -0.1], dtype=torch.float64)).norm(dim=1)
    print("energy %.4f -> %.4f, radius spread %.3f..%.3f" % (energy0, energy1, dist.min(), dist.max()))
    assert energy1 < 0.3 * energy0
    assert (dist - 1.0).abs().mean() < 0.15


if __name__ == "__main__":
    main()

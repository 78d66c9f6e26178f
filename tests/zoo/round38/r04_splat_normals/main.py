"""
expect: GL001 splat.py:31
dynamic: confirm
source: https://github.com/maturk/dn-splatter/pull/49

dn-splatter PR: after the gsplat 1.0 upgrade the normal map was rendered from detached Gaussian
parameters, so the monocular-normal supervision could no longer move opacities and geometry;
the fix lets gradients flow to them again. This toy splatting model renders colour and a normal
map in two compositing passes; the normal pass takes means/scales/opacities through .detach(),
so the normal loss only reaches the per-Gaussian normal vectors. The asserts show the normal
loss gives exactly zero gradient to opacities and means in the detached model, and non-zero
gradient in the fixed model.
"""
import torch
from splat import SplatModel

torch.manual_seed(0)
torch.set_num_threads(1)

pix = torch.rand(64, 2)
gt_normals = torch.nn.functional.normalize(torch.randn(64, 3), dim=-1)


def normal_loss_grads(model):
    model.zero_grad()
    _, normal_map = model.render(pix)
    loss = (1 - torch.nn.functional.cosine_similarity(normal_map, gt_normals, dim=-1)).mean()
    loss.backward()
    return model.opacity_logits.grad, model.means.grad, model.normals.grad


torch.manual_seed(1)
buggy = SplatModel(detach_geometry_for_normals=True)
g_op, g_mu, g_n = normal_loss_grads(buggy)
assert g_op is None and g_mu is None       # geometry never sees the normal loss
assert g_n.abs().sum() > 0

torch.manual_seed(1)
fixed = SplatModel(detach_geometry_for_normals=False)
g_op, g_mu, g_n = normal_loss_grads(fixed)
assert g_op.abs().sum() > 0 and g_mu.abs().sum() > 0
print("ok")

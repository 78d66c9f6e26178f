"""
expect: GL002 lighting.py:11
dynamic: confirm
source: https://github.com/facebookresearch/pytorch3d/issues/423

The reporter wanted to fit the ambient colour of a DirectionalLights object by gradient
descent.  The light was built with `ambient_color=((light_coeff[0], light_coeff[1],
light_coeff[2]),)`, i.e. a tuple of 0-d slices of a tensor with requires_grad=True, and
light_coeff was handed to the optimizer - yet it never changed.  The renderer's property
helper turns anything that is not already a tensor into one with `torch.tensor(value)`,
which reads the numbers out of the slices and builds a brand-new leaf: the link between the
light colour and light_coeff is lost.  Here a camera exposure gain is optimised together
with the light, so the loss still requires grad and nothing fails loudly.  The
asserts show light_coeff.grad stays None and its value is unchanged after the steps, while
passing the coefficients as a (1, 3) tensor keeps the history and recovers the target
ambient colour (0.2, 0.6, 0.4) with a near-zero fit error.
"""
import warnings

import torch
import torch.nn.functional as F

from lighting import DirectionalLight

torch.manual_seed(0)
torch.set_num_threads(1)
# torch warns once when it reads a grad-requiring 0-d tensor as a Python number
warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True")

P = 64
normals = F.normalize(torch.randn(P, 3), dim=-1)
normals[:, 2] = normals[:, 2].abs()
true_albedo = torch.rand(P, 3) * 0.5 + 0.5
true_light = DirectionalLight(ambient_color=((0.2, 0.6, 0.4),))
target = true_light.shade(normals, true_albedo)


def fit(pass_as_tensor, steps=600):
    torch.manual_seed(1)
    light_coeff = torch.full((3,), 0.9, requires_grad=True)
    exposure = torch.ones(1, requires_grad=True)
    opt = torch.optim.Adam([light_coeff, exposure], lr=0.05)
    start = light_coeff.detach().clone()
    for _ in range(steps):
        opt.zero_grad()
        if pass_as_tensor:
            ambient = light_coeff[None]
        else:
            ambient = ((light_coeff[0], light_coeff[1], light_coeff[2]),)
        light = DirectionalLight(ambient_color=ambient)
        loss = F.mse_loss(exposure * light.shade(normals, true_albedo), target)
        loss.backward()
        opt.step()
    return light_coeff, start, loss.item()


coeff_bug, start_bug, loss_bug = fit(pass_as_tensor=False)
assert coeff_bug.grad is None, "tuple of slices: the light never receives a gradient"
assert torch.equal(coeff_bug.detach(), start_bug), "tuple of slices: light colour unchanged"

coeff_fix, start_fix, loss_fix = fit(pass_as_tensor=True)
assert coeff_fix.grad is not None and coeff_fix.grad.abs().sum() > 0
assert not torch.equal(coeff_fix.detach(), start_fix)
assert (coeff_fix.detach() - torch.tensor([0.2, 0.6, 0.4])).abs().max() < 0.05, coeff_fix
assert loss_fix < 1e-4 < loss_bug, (loss_fix, loss_bug)

print("tuple-built light: coeff stays", [round(v, 3) for v in coeff_bug.tolist()], "loss %.5f" % loss_bug)
print("tensor light:      coeff ->", [round(v, 3) for v in coeff_fix.tolist()], "loss %.5f" % loss_fix)

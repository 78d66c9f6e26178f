"""
expect: none
dynamic: dismiss
source: https://github.com/VITA-Group/NeuralLift-360/issues/10

The issue asks why sd_clipguide.py does `sample = sample.detach().requires_grad_()`,
arguing the gradient of the sample can then no longer reach the NeRF. In that
code the detached sample is only used to get d(clip_loss)/d(sample) with
torch.autograd.grad, and the result is folded into the hand-built SDS gradient
that is pushed into the rendered latents with latents.backward(gradient=...).
This program rebuilds that guidance step in guidance.py with a tiny renderer in
front. The asserts show the renderer's parameters receive a non-zero gradient
that includes the CLIP term, and they change after the optimizer step.
"""
import torch
import torch.nn as nn

from guidance import FrozenGuide

torch.manual_seed(0)
renderer = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 8))
guide = FrozenGuide()
opt = torch.optim.Adam(renderer.parameters(), lr=1e-2)
cams = torch.randn(4, 5)
ref = torch.nn.functional.normalize(torch.randn(1, 6), dim=-1)

w0 = renderer[0].weight.detach().clone()
opt.zero_grad()
guide.train_step(renderer(cams), ref, clip_scale=10.0)
g_with_clip = renderer[2].weight.grad.clone()
assert g_with_clip.abs().sum() > 0
opt.step()
assert not torch.equal(w0, renderer[0].weight)

# The CLIP part really reaches the renderer: compare with clip_scale=0 on the same noise.
for scale in (10.0, 0.0):
    torch.manual_seed(1)
    opt.zero_grad()
    guide.train_step(renderer(cams), ref, clip_scale=scale)
    if scale:
        g_a = renderer[2].weight.grad.clone()
    else:
        g_b = renderer[2].weight.grad.clone()
assert not torch.allclose(g_a, g_b)
print("renderer grad norm:", g_with_clip.norm().item())

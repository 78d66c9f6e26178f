"""
expect: GL005 denoiser.py:17
dynamic: confirm
source: https://github.com/yunik1004/SAiD/issues/8

SAiD trains a diffusion denoiser for speech-driven blendshapes. The report hits
"output 0 of TanhBackward0 is at version 1; expected version 0" and the fix was to
turn the `+=` / `*=` in the code into plain arithmetic. Here the denoiser scales its
tanh activation in place (`h *= gain`); tanh saved that output for its backward, so
the training step fails. The asserts show the version-counter error for the buggy
module and a clean, gradient-carrying step for the out-of-place variant.
"""
import torch
import torch.nn.functional as F
from denoiser import BlendshapeDenoiser, BlendshapeDenoiserFixed

torch.manual_seed(0)
torch.set_num_threads(1)


def diffusion_step(model, x0, audio):
    t = torch.rand(x0.shape[0], 1)
    noise = torch.randn_like(x0)
    noisy = (1 - t).sqrt() * x0 + t.sqrt() * noise
    pred = model(noisy, audio)
    loss = F.mse_loss(pred, noise)
    loss.backward()
    return loss


x0 = torch.randn(32, 8)
audio = torch.randn(32, 12)

buggy = BlendshapeDenoiser()
raised = False
try:
    diffusion_step(buggy, x0, audio)
except RuntimeError as e:
    raised = "modified by an inplace operation" in str(e)
assert raised

fixed = BlendshapeDenoiserFixed()
fixed.load_state_dict(buggy.state_dict())
diffusion_step(fixed, x0, audio)
assert fixed.inp.weight.grad is not None and fixed.inp.weight.grad.abs().sum() > 0
print("ok")

"""
expect: GL001 main.py:37
dynamic: confirm
source: https://github.com/ZhentingWang/RONAN/issues/3

The user freezes a diffusion pipeline and wants to optimize only the initial noise: the noise is wrapped in
nn.Parameter, handed to Adam, passed to the pipeline as `latents`, and an MSE between the generated image and
a target is minimized. The pipeline's __call__ is decorated with @torch.no_grad() (as diffusers pipelines
are), so every operation inside it is unrecorded: the returned image has no grad_fn, the loss's grad_fn is
None (what the report prints), and the noise parameter can never receive a gradient. The program asserts
that the image and loss carry no history, that backward() raises, that the noise stays None-grad and does
not move, and that running the same sampling path with recording enabled gives the noise a gradient and
lowers the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from pipeline import TinyPipeline

torch.manual_seed(0)
torch.set_num_threads(1)

pipe = TinyPipeline()
for module in (pipe.unet, pipe.vae):
    module.eval()
    for p in module.parameters():
        p.requires_grad_(False)

target = torch.zeros(1, 3, 16, 16)
noise = nn.Parameter(torch.randn(1, 4, 8, 8))
optimizer = torch.optim.Adam([noise], lr=0.05)
before = noise.detach().clone()

for _ in range(3):
    optimizer.zero_grad()
    image = pipe("dog", latents=noise)
    loss = F.mse_loss(image, target)
    assert loss.grad_fn is None and not image.requires_grad
    try:
        loss.backward()
    except RuntimeError:
        pass
    optimizer.step()
assert noise.grad is None
assert torch.equal(noise.detach(), before)

# intended: run the same sampling path with autograd recording the frozen networks
noise2 = nn.Parameter(before.clone())
opt2 = torch.optim.Adam([noise2], lr=0.05)
losses = []
for _ in range(20):
    opt2.zero_grad()
    loss2 = F.mse_loss(pipe.denoise("dog", noise2), target)
    loss2.backward()
    losses.append(loss2.item())
    opt2.step()
assert noise2.grad is not None and noise2.grad.abs().sum() > 0
assert losses[-1] < losses[0]
print("no_grad pipeline: noise unchanged; recorded path: loss %.4f -> %.4f" % (losses[0], losses[-1]))

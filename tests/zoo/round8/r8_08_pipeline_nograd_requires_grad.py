"""
expect: GL003 45
dynamic: confirm
source: https://github.com/huggingface/diffusers/issues/12672

A diffusers-style pipeline: `__call__` is decorated with @torch.no_grad()
(pipelines are meant for inference) and runs a denoising transformer followed
by a decoder. The user wants to fine-tune the transformer through the
pipeline output, so they put the transformer's parameters in an optimizer,
set requires_grad on the modules, call the pipeline, and switch
requires_grad_(True) on the returned image so that loss.backward() stops
raising. The image was produced under no_grad, so it is a leaf without
history: backward runs but the transformer gets no gradient and never moves.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyPipeline:
    def __init__(self, transformer, decoder, steps=3):
        self.transformer, self.decoder, self.steps = transformer, decoder, steps

    @torch.no_grad()
    def __call__(self, latents):
        x = latents
        for _ in range(self.steps):
            x = x - 0.1 * self.transformer(x)
        return self.decoder(x)


pipe = TinyPipeline(nn.Sequential(nn.Linear(8, 8), nn.GELU(), nn.Linear(8, 8)), nn.Linear(8, 12))
pipe.transformer.requires_grad_(True)
pipe.decoder.requires_grad_(True)
opt = torch.optim.Adam(pipe.transformer.parameters(), lr=1e-2)
latents = torch.randn(4, 8)
target = torch.randn(4, 12)
before = [p.detach().clone() for p in pipe.transformer.parameters()]

for _ in range(3):
    opt.zero_grad()
    image = pipe(latents)
    image.requires_grad_(True)
    loss = F.mse_loss(image, target)
    loss.backward()
    opt.step()

assert image.is_leaf and image.grad is not None  # the gradient stops at the image
assert all(p.grad is None for p in pipe.transformer.parameters()), "transformer got a gradient"
assert all(torch.equal(a, b) for a, b in zip(before, pipe.transformer.parameters()))
print("OK: requires_grad_ on a no_grad pipeline output trains nothing upstream")

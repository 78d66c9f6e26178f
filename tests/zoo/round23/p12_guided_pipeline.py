"""
expect: GL003 41
dynamic: confirm
source: https://github.com/huggingface/diffusers/issues/4594

A user building a custom diffusion pipeline out of step functions found that
`latents.requires_grad` was False "no matter what": the pipeline's `__call__` is decorated
with `@torch.no_grad()` (like the library's pipelines), so switching `requires_grad` on
inside it cannot give the guidance loss any history. Here the guidance step turns the
latents' flag on and asks autograd for the gradient of an aesthetic loss; since the loss was
built under no_grad it has no graph, the defensive branch returns a zero gradient and the
guidance silently does nothing. The asserts show guided and unguided sampling give the same
latents, and running the same guidance under `torch.enable_grad()` changes them and lowers
the guidance loss.
"""
import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.manual_seed(0)


class TinyUNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(ch + 1, 32), nn.SiLU(), nn.Linear(32, ch))

    def forward(self, x, t):
        return self.net(torch.cat([x, t.expand(x.shape[0], 1)], -1))


def aesthetic_loss(latents):
    return (latents[:, :4] - 1.0).pow(2).mean()


class GuidedPipeline:
    def __init__(self, unet, steps=20, guidance_scale=0.0):
        self.unet, self.steps, self.guidance_scale = unet, steps, guidance_scale

    def guidance_grad(self, latents):
        latents.requires_grad_(True)
        loss = aesthetic_loss(latents)
        if not loss.requires_grad:
            return torch.zeros_like(latents)
        return torch.autograd.grad(loss, latents)[0]

    def denoise_step(self, latents, t):
        noise = self.unet(latents, t)
        latents = latents - 0.05 * noise
        if self.guidance_scale > 0:
            latents = latents - self.guidance_scale * self.guidance_grad(latents)
        return latents.detach()

    @torch.no_grad()
    def __call__(self, latents):
        for i in range(self.steps):
            t = torch.tensor([[1.0 - i / self.steps]])
            latents = self.denoise_step(latents, t)
        return latents


unet = TinyUNet()
for p in unet.parameters():
    p.requires_grad_(False)
start = torch.randn(4, 8)
plain = GuidedPipeline(unet, guidance_scale=0.0)(start.clone())
guided = GuidedPipeline(unet, guidance_scale=0.5)(start.clone())
assert torch.equal(plain, guided), "guidance had no effect inside the no_grad __call__"


def sample_with_grad(pipe, latents):
    for i in range(pipe.steps):
        t = torch.tensor([[1.0 - i / pipe.steps]])
        with torch.enable_grad():
            latents = pipe.denoise_step(latents, t)
    return latents


fixed = sample_with_grad(GuidedPipeline(unet, guidance_scale=0.5), start.clone())
assert not torch.equal(fixed, plain)
assert aesthetic_loss(fixed) < aesthetic_loss(plain) - 0.1
print("p12 ok: requires_grad_ inside a no_grad pipeline -> silent no-op guidance",
      aesthetic_loss(plain).item(), aesthetic_loss(fixed).item())

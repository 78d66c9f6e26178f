"""
expect: none
dynamic: dismiss
source: https://github.com/ashawkey/stable-dreamfusion/issues/335

Text-to-3D score distillation (SDS) must skip the diffusion model's Jacobian. The issue proposes
dropping the custom SpecifyGradient autograd function (whose loss value is a meaningless constant)
and instead detaching the gradient term, so the loss value means something while its gradient is
still the SDS gradient. This program uses the usual detached-target form,
`0.5 * mse(latents, (latents - grad).detach(), reduction='sum')`, with grad computed from the
denoiser's noise prediction under torch.no_grad(); both cuts are on purpose. It renders a tiny
image from a coordinate MLP, scores it with a frozen toy denoiser, and asserts that d loss /
d latents equals grad, that every renderer parameter gets a gradient, and that the render moves
toward the denoiser's target.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
H = W = 8
coords = torch.stack(torch.meshgrid(torch.linspace(-1, 1, H), torch.linspace(-1, 1, W),
                                    indexing="ij"), -1).view(-1, 2)
alphas_cumprod = torch.linspace(0.99, 0.1, 100)


class ToyDenoiser(nn.Module):
    """Frozen 'diffusion model' that believes every image should look like `target`."""
    def __init__(self, target):
        super().__init__()
        self.register_buffer("target", target)
        self.scale = nn.Parameter(torch.ones(1), requires_grad=False)

    def forward(self, noisy, t):
        ab = alphas_cumprod[t]
        return self.scale * (noisy - ab.sqrt() * self.target) / (1 - ab).sqrt()


class Renderer(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self):
        return torch.sigmoid(self.mlp(coords)).t().reshape(1, 3, H, W)


def sds_loss(latents, denoiser, t, guidance=1.0):
    with torch.no_grad():
        noise = torch.randn_like(latents)
        ab = alphas_cumprod[t]
        noisy = ab.sqrt() * latents + (1 - ab).sqrt() * noise
        noise_pred = denoiser(noisy, t)
    w = 1 - alphas_cumprod[t]
    grad = guidance * w * (noise_pred - noise)
    grad = torch.nan_to_num(grad)
    target = (latents - grad).detach()
    loss = 0.5 * F.mse_loss(latents, target, reduction="sum") / latents.shape[0]
    return loss, grad


target_img = torch.rand(1, 3, H, W)
renderer, denoiser = Renderer(), ToyDenoiser(target_img)
opt = torch.optim.Adam(renderer.parameters(), lr=3e-2)
start_err = F.mse_loss(renderer(), target_img).item()
for it in range(120):
    latents = renderer()
    t = int(torch.randint(20, 80, (1,)))
    loss, grad = sds_loss(latents, denoiser, t)
    if it == 0:
        g_lat, = torch.autograd.grad(loss, latents, retain_graph=True)
        assert torch.allclose(g_lat, grad, atol=1e-6), "d loss / d latents is exactly the SDS grad"
    opt.zero_grad()
    loss.backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in renderer.parameters())
    opt.step()
end_err = F.mse_loss(renderer(), target_img).item()
print(f"distance to the denoiser's target: {start_err:.4f} -> {end_err:.4f}")
assert end_err < 0.75 * start_err
print("OK")

"""
expect: GL003 72
dynamic: confirm
source: https://github.com/nerfstudio-project/nerfstudio/issues/2536

A nerfstudio user added a score-distillation (SDS) loss to get_train_loss_dict:
target = (latents - grad).detach(); loss_sds = 0.5 * mse(latents, target). backward()
raised "element 0 of tensors does not require grad", so loss_sds.requires_grad_(True) was
added; training then ran smoothly but the scene never changed. Here the latents come out
of a guidance method decorated with @torch.no_grad(), so the rendered image is not on
their graph. The asserts show the radiance-field parameters keep grad None and stay
bit-identical after several steps, while encoding outside no_grad does update them.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyField(nn.Module):
    """Maps pixel coordinates to RGB: a stand-in for the NeRF being optimised."""

    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 3), nn.Sigmoid())

    def forward(self, coords):
        return {"rgb": self.mlp(coords)}


class SDSGuidance(nn.Module):
    """Frozen latent-diffusion stand-in: VAE encoder plus noise predictor."""

    def __init__(self, n_pix=64, latent_dim=16):
        super().__init__()
        self.vae_encoder = nn.Linear(n_pix * 3, latent_dim)
        self.unet = nn.Sequential(nn.Linear(latent_dim, 32), nn.SiLU(), nn.Linear(32, latent_dim))
        for p in self.parameters():
            p.requires_grad_(False)

    def encode(self, rgb):
        return self.vae_encoder(rgb.reshape(1, -1))

    def noise_residual(self, latents, t=0.5):
        noise = torch.randn_like(latents)
        noisy = (1 - t) ** 0.5 * latents + t ** 0.5 * noise
        return (1 - t) * (self.unet(noisy) - noise)

    @torch.no_grad()
    def encode_and_score(self, rgb):
        latents = self.encode(rgb)
        return latents, self.noise_residual(latents)


class Pipeline:
    def __init__(self, model, guidance, coords):
        self.model, self.guidance, self.coords = model, guidance, coords

    def latents_and_grad(self, rgb):
        return self.guidance.encode_and_score(rgb)

    def get_train_loss_dict(self):
        outputs = self.model(self.coords)
        latents, grad = self.latents_and_grad(outputs["rgb"])
        grad = torch.nan_to_num(grad)
        target = (latents - grad).detach()
        loss_sds = 0.5 * F.mse_loss(latents, target, reduction="sum") / latents.shape[0]
        loss_sds.requires_grad_(True)
        return {"loss_sds": loss_sds}


class PipelineFixed(Pipeline):
    def latents_and_grad(self, rgb):
        latents = self.guidance.encode(rgb)                  # encoder on the graph
        with torch.no_grad():
            grad = self.guidance.noise_residual(latents)     # only the UNet call is no_grad
        return latents, grad


coords = torch.stack(torch.meshgrid(torch.linspace(-1, 1, 8), torch.linspace(-1, 1, 8),
                                    indexing="ij"), dim=-1).reshape(-1, 2)
field, guidance = TinyField(), SDSGuidance()
start = copy.deepcopy(field.state_dict())

pipeline = Pipeline(field, guidance, coords)
opt = torch.optim.Adam(field.parameters(), lr=1e-2)
for step in range(10):
    opt.zero_grad()
    pipeline.get_train_loss_dict()["loss_sds"].backward()
    opt.step()
assert all(p.grad is None for p in field.parameters()), "the field never gets a gradient"
assert all(torch.equal(v, start[k]) for k, v in field.state_dict().items()), "scene unchanged"

fixed_field = TinyField()
fixed_field.load_state_dict(start)
opt = torch.optim.Adam(fixed_field.parameters(), lr=1e-2)
opt.zero_grad()
PipelineFixed(fixed_field, guidance, coords).get_train_loss_dict()["loss_sds"].backward()
opt.step()
assert not torch.equal(fixed_field.mlp[0].weight, start["mlp.0.weight"]), "fixed SDS updates"
print("ok: SDS loss with requires_grad_(True) trains nothing")

"""
expect: GL001 guidance.py:37
dynamic: confirm
source: https://github.com/ashawkey/stable-dreamfusion/issues/171

Text-to-3D with latent score distillation: a user asked why the image encoding
into the diffusion latent space runs with gradients on, since the VAE is frozen.
The answer is that the SDS gradient must travel through the frozen encoder back
to the rendered image and from there into the radiance field. Here the guidance
class (guidance.py) wraps `vae.encode` in torch.no_grad(), so the SDS loss is
built wholly from no-grad latents; training still runs because a smoothness
regulariser keeps a graph. The asserts show that turning the SDS weight from 0
to 1 leaves the field's gradient bit-identical with the no_grad encoder, while
the plain encoder lets the guidance reach the field.
"""
import torch
import torch.nn as nn

from guidance import FixedLatentScoreDistillation, LatentScoreDistillation, TinyAutoencoderKL, TinyUNet

torch.manual_seed(0)
torch.set_num_threads(1)


class ToyRadianceField(nn.Module):
    """A tiny colour field rendered on a 16x16 pixel grid (stands in for NeRF)."""

    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 3))
        ys, xs = torch.meshgrid(torch.linspace(-1, 1, 16), torch.linspace(-1, 1, 16), indexing="ij")
        self.register_buffer("coords", torch.stack([xs, ys], -1).view(-1, 2))

    def render(self):
        rgb = torch.sigmoid(self.mlp(self.coords))
        return rgb.view(16, 16, 3).permute(2, 0, 1).unsqueeze(0)


def smoothness(image):
    return (image[..., 1:, :] - image[..., :-1, :]).abs().mean()


def sds_share_of_gradient(guidance_cls, sds_weight):
    torch.manual_seed(0)
    field = ToyRadianceField()
    guidance = guidance_cls(TinyAutoencoderKL(), TinyUNet())
    image = field.render()
    torch.manual_seed(1)
    loss = sds_weight * guidance.train_step(image) + 0.1 * smoothness(image)
    loss.backward()
    return field.mlp[0].weight.grad.clone()


def train(guidance_cls, steps=5):
    torch.manual_seed(0)
    field = ToyRadianceField()
    guidance = guidance_cls(TinyAutoencoderKL(), TinyUNet())
    opt = torch.optim.Adam(field.parameters(), lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        image = field.render()
        loss = guidance.train_step(image) + 0.1 * smoothness(image)
        loss.backward()          # runs fine: the regulariser keeps a graph
        opt.step()
    return loss.item()


train(LatentScoreDistillation)   # trains without complaint
# Does the SDS term contribute anything to the field's gradient?
bug_on, bug_off = sds_share_of_gradient(LatentScoreDistillation, 1.0), sds_share_of_gradient(LatentScoreDistillation, 0.0)
fix_on, fix_off = sds_share_of_gradient(FixedLatentScoreDistillation, 1.0), sds_share_of_gradient(FixedLatentScoreDistillation, 0.0)
print("SDS contribution: no_grad encoder", (bug_on - bug_off).abs().max().item(),
      "| plain encoder", (fix_on - fix_off).abs().max().item())
assert torch.equal(bug_on, bug_off)                  # guidance term is dead weight
assert (fix_on - fix_off).abs().max() > 1e-4         # it should steer the field

"""
expect: none
dynamic: dismiss
source: https://github.com/Stability-AI/stablediffusion/blob/main/ldm/modules/diffusionmodules/util.py

Public code with several look-alike lines: the latent-diffusion UNet checkpoints its
ResBlocks with a custom autograd Function (ldm_util.py here) that runs the block under
`torch.no_grad()` in forward, and in backward re-runs it on
`x.detach().requires_grad_(True)` inside `torch.enable_grad()` and returns
`torch.autograd.grad(...)` for the inputs and the block's parameters; and `zero_module`
zero-initialises the last layer of each residual branch with `p.detach().zero_()`. None of
these cut training: the Function hands the parameter gradients back explicitly, and the
in-place zeroing happens once at construction, before any graph exists. This program
trains a tiny noise-prediction network built from such blocks; the asserts show the
checkpointed gradients equal the plain ones, every parameter (including the zero-initialised
layers and everything upstream of them) moves, and the denoising loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from ldm_util import checkpoint, zero_module

torch.manual_seed(0)


class ResBlock(nn.Module):
    def __init__(self, ch, emb_ch, use_checkpoint=True):
        super().__init__()
        self.in_layers = nn.Sequential(nn.GroupNorm(4, ch), nn.SiLU(), nn.Linear(ch, ch))
        self.emb_layers = nn.Sequential(nn.SiLU(), nn.Linear(emb_ch, ch))
        self.out_layers = nn.Sequential(nn.GroupNorm(4, ch), nn.SiLU(), zero_module(nn.Linear(ch, ch)))
        self.use_checkpoint = use_checkpoint

    def forward(self, x, emb):
        return checkpoint(self._forward, (x, emb), self.parameters(), self.use_checkpoint)

    def _forward(self, x, emb):
        h = self.in_layers(x) + self.emb_layers(emb)
        return x + self.out_layers(h)


class TinyDenoiser(nn.Module):
    def __init__(self, dim=8, ch=16, use_checkpoint=True):
        super().__init__()
        self.time_embed = nn.Sequential(nn.Linear(1, ch), nn.SiLU(), nn.Linear(ch, ch))
        self.inp = nn.Linear(dim, ch)
        self.blocks = nn.ModuleList([ResBlock(ch, ch, use_checkpoint) for _ in range(2)])
        self.out = nn.Linear(ch, dim)

    def forward(self, x_t, t):
        emb, h = self.time_embed(t[:, None]), self.inp(x_t)
        for blk in self.blocks:
            h = blk(h, emb)
        return self.out(h)


def diffusion_loss(model, x0):
    t = torch.rand(x0.shape[0])
    noise = torch.randn_like(x0)
    a = torch.cos(t * 1.5707)[:, None]
    return F.mse_loss(model(a * x0 + (1 - a ** 2).sqrt() * noise, t), noise)


def data(n=64):
    z = torch.randn(n, 2)
    return torch.cat([z, z @ torch.randn(2, 6)], dim=1)


if __name__ == "__main__":
    ckpt, plain = TinyDenoiser(use_checkpoint=True), TinyDenoiser(use_checkpoint=False)
    plain.load_state_dict(ckpt.state_dict())
    opt0 = torch.optim.Adam(ckpt.parameters(), lr=1e-2)
    for _ in range(3):                                   # leave the all-zero initial point
        opt0.zero_grad(); diffusion_loss(ckpt, data()).backward(); opt0.step()
    plain.load_state_dict(ckpt.state_dict())
    x0 = data()
    ckpt.zero_grad(); plain.zero_grad()
    torch.manual_seed(1); diffusion_loss(ckpt, x0).backward()
    torch.manual_seed(1); diffusion_loss(plain, x0).backward()
    for (n, p), q in zip(ckpt.named_parameters(), plain.parameters()):
        assert p.grad is not None and torch.allclose(p.grad, q.grad, atol=1e-6), n

    init = {k: v.clone() for k, v in ckpt.state_dict().items()}
    opt = torch.optim.Adam(ckpt.parameters(), lr=1e-2)
    losses = []
    for _ in range(50):
        loss = diffusion_loss(ckpt, data())
        opt.zero_grad(); loss.backward(); opt.step()
        losses.append(loss.item())
    for n, p in ckpt.named_parameters():
        assert not torch.equal(p.detach(), init[n]), n
    assert sum(losses[-10:]) < sum(losses[:10])
    print(f"OK: checkpointed grads match; all params train; loss {losses[0]:.3f} -> {losses[-1]:.3f}")

"""
expect: none
dynamic: dismiss
source: https://github.com/cwkx/GON/issues/1

Implicit neural representations (SIREN kin: Gradient Origin Networks). A GON trains a
SIREN decoder F(coords, z) over a batch of images without an encoder: the latent of each
image is obtained as minus the gradient of the reconstruction loss at the origin. The
training step therefore creates `z = torch.zeros(...).requires_grad_()`, evaluates an
inner loss, takes `torch.autograd.grad(L_inner, [z], create_graph=True,
retain_graph=True)`, decodes again from the resulting z and backpropagates the outer
loss. The `requires_grad_()` is set on a fresh origin tensor (no history was cut; it is
the variable being differentiated) and `retain_graph=True` keeps the inner graph only
until the outer backward of the same step, which really needs it (second-order term).
Nothing is carried across iterations. The asserts show that the outer loss falls, that
the SIREN weights get gradient, and that this gradient differs from the one obtained
with a detached z (the inner graph really is reused, so the flag is needed).
"""
import math
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class SirenLayer(nn.Module):
    def __init__(self, in_f, out_f, w0=30.0, is_first=False):
        super().__init__()
        self.w0 = w0
        self.linear = nn.Linear(in_f, out_f)
        bound = 1.0 / in_f if is_first else math.sqrt(6.0 / in_f) / w0
        nn.init.uniform_(self.linear.weight, -bound, bound)

    def forward(self, x):
        return torch.sin(self.w0 * self.linear(x))


class GONSiren(nn.Module):
    def __init__(self, num_latent, hidden=64, out_ch=1):
        super().__init__()
        self.net = nn.Sequential(SirenLayer(2 + num_latent, hidden, is_first=True),
                                 SirenLayer(hidden, hidden), nn.Linear(hidden, out_ch))

    def forward(self, x):
        return self.net(x)


def make_images(batch, side=8):
    xs = torch.linspace(-1, 1, side)
    gy, gx = torch.meshgrid(xs, xs, indexing="ij")
    freq = torch.rand(batch, 1, 1) * 2 + 1
    phase = torch.rand(batch, 1, 1) * 3.14
    img = torch.sin(freq * gx + phase) * torch.cos(freq * gy)
    coords = torch.stack([gx, gy], -1).reshape(1, -1, 2).repeat(batch, 1, 1)
    return coords, img.reshape(batch, -1, 1)


def gon_step(F, coords, x, num_latent, detach_latent=False):
    b = x.size(0)
    z = torch.zeros(b, 1, num_latent).requires_grad_()
    z_rep = z.repeat(1, coords.size(1), 1)
    g = F(torch.cat((coords, z_rep), dim=-1))
    L_inner = ((g - x) ** 2).sum(1).mean()
    z = -torch.autograd.grad(L_inner, [z], create_graph=True, retain_graph=True)[0]
    if detach_latent:
        z = z.detach()
    z_rep = z.repeat(1, coords.size(1), 1)
    g = F(torch.cat((coords, z_rep), dim=-1))
    return ((g - x) ** 2).sum(1).mean()


NUM_LATENT = 8
coords, imgs = make_images(16)
F = GONSiren(NUM_LATENT)
optim = torch.optim.Adam(F.parameters(), lr=1e-4)
losses = []
for step in range(100):
    L_outer = gon_step(F, coords, imgs, NUM_LATENT)
    optim.zero_grad()
    L_outer.backward()
    optim.step()
    losses.append(L_outer.item())

assert losses[-1] < 0.3 * losses[0], (losses[0], losses[-1])
w = F.net[0].linear.weight
assert w.grad is not None and w.grad.abs().sum() > 0

# the inner graph is really used by the outer backward: gradients differ from a detached latent
F.zero_grad()
gon_step(F, coords, imgs, NUM_LATENT).backward()
g_full = w.grad.clone()
F.zero_grad()
gon_step(F, coords, imgs, NUM_LATENT, detach_latent=True).backward()
g_det = w.grad.clone()
assert not torch.allclose(g_full, g_det, atol=1e-6)
print("GON/SIREN trains: %.3f -> %.3f; second-order path used (|dg|=%.2e)"
      % (losses[0], losses[-1], (g_full - g_det).abs().max().item()))

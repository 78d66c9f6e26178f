"""
expect: none
dynamic: dismiss
source: https://github.com/deepinv/deepinv/issues/1289

A deepinv contributor proposed turning the noise models' y = y * gain and
y = y + randn_like(x) * sigma into in-place y *= gain and y += randn * sigma; a maintainer
answered that autograd relies on intermediate values, so in-place edits can break
gradients. In this use they do not: y is the fresh output of the blur operator (conv2d
saves its input and kernel, not its output) and neither a scalar multiply nor an add
saves y. This program trains a reconstructor with an equivariant-imaging loss that sends
gradients through the in-place noise. The asserts show the gradient is identical to the
out-of-place version (same noise) and the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class BlurPhysics:
    def __init__(self, gain=0.8, sigma=0.05, inplace=True):
        k = torch.exp(-torch.arange(-2.0, 3.0) ** 2 / 2)
        self.kernel = (k[:, None] * k[None, :] / k.sum() ** 2)[None, None]
        self.gain, self.sigma, self.inplace = gain, sigma, inplace

    def A(self, x):
        return F.conv2d(x, self.kernel, padding=2)

    def noise(self, y, gen):
        if self.inplace:
            y *= self.gain
            y += torch.randn(y.shape, generator=gen) * self.sigma
            return y
        return y * self.gain + torch.randn(y.shape, generator=gen) * self.sigma

    def __call__(self, x, gen):
        return self.noise(self.A(x), gen)


class Reconstructor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, y):
        return y + self.net(y)


def ei_loss(model, physics, y, seed):
    gen = torch.Generator().manual_seed(seed)
    x1 = model(y)
    mc = F.mse_loss(physics.gain * physics.A(x1), y)      # measurement consistency
    x2 = torch.rot90(x1, 1, dims=(2, 3))                  # group action (rotation)
    x3 = model(physics(x2, gen))                          # re-measure: goes through noise()
    return mc + F.mse_loss(x3, x2)


x_true = torch.rand(4, 1, 12, 12)
y = BlurPhysics(inplace=False)(x_true, torch.Generator().manual_seed(123))

model = Reconstructor()
grads = {}
for inplace in (True, False):
    model.zero_grad()
    ei_loss(model, BlurPhysics(inplace=inplace), y, seed=7).backward()
    grads[inplace] = [p.grad.clone() for p in model.parameters()]
assert all(torch.allclose(a, b, atol=1e-7) for a, b in zip(grads[True], grads[False])), \
    "in-place noise on the operator output gives the same gradient"

physics = BlurPhysics(inplace=True)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
losses = []
for step in range(60):
    opt.zero_grad()
    loss = ei_loss(model, physics, y, seed=step)
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert sum(losses[-5:]) < sum(losses[:5]), "training with the in-place noise model works"
print(f"ok: in-place y *= gain; y += noise is safe here; loss {losses[0]:.4f} -> {losses[-1]:.4f}")

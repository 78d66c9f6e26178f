"""
expect: none
dynamic: dismiss
source: https://github.com/NVlabs/denoising-diffusion-gan/blob/6818ded6443e10ab69c7864745457ce391d4d883/train_ddgan.py

Denoising-diffusion GAN discriminator step. The noisy pair (x_t, x_t+1) is sampled from the forward
process, and x_t, a plain data tensor with no history, is switched to requires_grad = True so that
the R1 penalty can take the gradient of the discriminator output with respect to its input. The
real-logit loss is backpropagated with retain_graph=True because the R1 term then differentiates the
same D_real graph with torch.autograd.grad(create_graph=True). Nothing is carried across iterations:
every step samples fresh tensors and frees its graph. The asserts check that the R1 gradient is
non-zero, that dropping retain_graph breaks the penalty, that the discriminator graph has the same
size at every step, and that both networks receive gradients and move during training.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

T = 4
betas = torch.linspace(0.1, 0.4, T + 1)
alphas_bar = torch.cumprod(1 - betas, 0)


def q_sample_pairs(x0, t):
    ab = alphas_bar[t].view(-1, 1)
    x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * torch.randn_like(x0)
    b_next = betas[t + 1].view(-1, 1)
    x_tp1 = (1 - b_next).sqrt() * x_t + b_next.sqrt() * torch.randn_like(x0)
    return x_t, x_tp1


def sample_posterior(x0, x_tp1, t):
    ab_t = alphas_bar[t].view(-1, 1)
    b = betas[t + 1].view(-1, 1)
    a = 1 - b
    ab_tp1 = alphas_bar[t + 1].view(-1, 1)
    mean = (ab_t.sqrt() * b / (1 - ab_tp1)) * x0 + (a.sqrt() * (1 - ab_t) / (1 - ab_tp1)) * x_tp1
    var = b * (1 - ab_t) / (1 - ab_tp1)
    return mean + var.sqrt() * torch.randn_like(x0)


class Net(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, d_out))

    def forward(self, *xs):
        return self.net(torch.cat(xs, dim=-1))


netG = Net(2 + 1 + 2, 2)
netD = Net(2 + 1 + 2, 1)
optG = torch.optim.Adam(netG.parameters(), lr=2e-3, betas=(0.5, 0.9))
optD = torch.optim.Adam(netD.parameters(), lr=2e-3, betas=(0.5, 0.9))


def data(n):
    centers = torch.tensor([[2.0, 0.0], [-2.0, 0.0], [0.0, 2.0], [0.0, -2.0]])
    return centers[torch.randint(0, 4, (n,))] + 0.1 * torch.randn(n, 2)


def tfeat(t):
    return (t.float() / T).view(-1, 1)


def d_real_graph_size(loss):
    seen, stack = set(), [loss.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


# dropping retain_graph frees D_real's graph before the R1 gradient can use it
x0 = data(64)
t = torch.randint(0, T, (64,))
x_t, x_tp1 = q_sample_pairs(x0, t)
x_t.requires_grad = True
D_real = netD(x_t, tfeat(t), x_tp1.detach()).view(-1)
F.softplus(-D_real).mean().backward()
try:
    torch.autograd.grad(D_real.sum(), x_t, create_graph=True)
    raise AssertionError("expected the freed-graph error")
except RuntimeError as err:
    assert "second time" in str(err), err
netD.zero_grad()

sizes = []
g_start = [p.detach().clone() for p in netG.parameters()]
d_start = [p.detach().clone() for p in netD.parameters()]
for it in range(150):
    for p in netD.parameters():
        p.requires_grad = True
    netD.zero_grad()
    x0 = data(64)
    t = torch.randint(0, T, (64,))
    x_t, x_tp1 = q_sample_pairs(x0, t)
    assert x_t.grad_fn is None
    x_t.requires_grad = True
    D_real = netD(x_t, tfeat(t), x_tp1.detach()).view(-1)
    errD_real = F.softplus(-D_real).mean()
    sizes.append(d_real_graph_size(errD_real))
    errD_real.backward(retain_graph=True)
    grad_real = torch.autograd.grad(outputs=D_real.sum(), inputs=x_t, create_graph=True)[0]
    grad_penalty = 0.5 * grad_real.view(grad_real.size(0), -1).norm(2, dim=1).pow(2).mean()
    if it == 0:
        assert grad_real.abs().sum() > 0
        before = [p.grad.clone() for p in netD.parameters()]
    grad_penalty.backward()
    if it == 0:
        assert any(not torch.equal(a, p.grad) for a, p in zip(before, netD.parameters()))

    latent_z = torch.randn(64, 2)
    x_pos = sample_posterior(netG(x_tp1.detach(), tfeat(t), latent_z), x_tp1, t)
    errD_fake = F.softplus(netD(x_pos, tfeat(t), x_tp1.detach()).view(-1)).mean()
    errD_fake.backward()
    optD.step()

    for p in netD.parameters():
        p.requires_grad = False
    netG.zero_grad()
    t = torch.randint(0, T, (64,))
    x_t, x_tp1 = q_sample_pairs(data(64), t)
    x_pos = sample_posterior(netG(x_tp1.detach(), tfeat(t), torch.randn(64, 2)), x_tp1, t)
    errG = F.softplus(-netD(x_pos, tfeat(t), x_tp1.detach()).view(-1)).mean()
    errG.backward()
    assert all(p.grad is not None for p in netG.parameters())
    optG.step()

assert len(set(sizes)) == 1, sizes[:5]
assert any(not torch.equal(a, b) for a, b in zip(g_start, netG.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(d_start, netD.parameters()))
assert all(math.isfinite(p.abs().sum().item()) for p in list(netG.parameters()) + list(netD.parameters()))
print(f"DDGAN: R1 step graph size {sizes[0]} at every iteration; generator and discriminator both trained")

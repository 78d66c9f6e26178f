"""expect: none
dynamic: dismiss
source: https://github.com/jannerm/diffuser/blob/main/diffuser/sampling/guides.py

Guided sampling as in Diffuser (planning with diffusion for RL): a value function is first trained by ordinary
regression on returns, then the reverse-diffusion sampler, which runs entirely under @torch.no_grad(), nudges each
noisy trajectory along the value gradient before the denoising step. The guide (guides.py) calls x.requires_grad_()
on a plan that was made under no_grad and takes torch.autograd.grad of the value with respect to that plan inside
torch.enable_grad(). This looks like the "requires_grad switch on a tensor that lost its history" pattern, but nothing
is meant to train here: the gradient is wanted with respect to the sample, not any parameter, and it is non-zero. The
asserts check that the value network trains in its own loop, that the guidance gradient is finite and non-zero, that
guided plans score higher than unguided ones from the same noise, and that sampling leaves every weight untouched.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from guides import ValueFunction, ValueGuide

torch.manual_seed(0)
torch.set_num_threads(1)

H, D, T = 8, 2, 20
betas = torch.linspace(1e-3, 0.1, T)
alphas = 1.0 - betas
alpha_bar = torch.cumprod(alphas, 0)


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(H * D + 1, 64), nn.Mish(), nn.Linear(64, H * D))

    def forward(self, x, t):
        return self.net(torch.cat([x.flatten(1), t.float().unsqueeze(1) / T], dim=1)).view(-1, H, D)


def p_mean_std(denoiser, x, t):
    eps = denoiser(x, t)
    a, ab, b = alphas[t].view(-1, 1, 1), alpha_bar[t].view(-1, 1, 1), betas[t].view(-1, 1, 1)
    mean = (x - b / (1 - ab).sqrt() * eps) / a.sqrt()
    return mean, b.sqrt()


@torch.no_grad()
def n_step_guided_p_sample(denoiser, x, t, guide, scale=0.5, n_guide_steps=2):
    for _ in range(n_guide_steps):
        with torch.enable_grad():
            y, grad = guide.gradients(x, t)
        x = x + scale * grad
    mean, std = p_mean_std(denoiser, x, t)
    noise = torch.randn_like(x)
    noise[t == 0] = 0
    return mean + std * noise, y


@torch.no_grad()
def sample(denoiser, guide, x, scale):
    for i in reversed(range(T)):
        t = torch.full((x.shape[0],), i, dtype=torch.long)
        x, _ = n_step_guided_p_sample(denoiser, x, t, guide, scale=scale)
    return x


def true_return(plan):
    return -((plan - 1.0) ** 2).sum(dim=(1, 2))


# 1) train the value function on noisy plans (ordinary regression)
value_fn = ValueFunction(H, D)
opt = torch.optim.Adam(value_fn.parameters(), lr=3e-3)
w0 = value_fn.net[0].weight.clone()
for _ in range(300):
    plans = torch.randn(64, H, D) * 1.5
    t = torch.randint(T, (64,))
    ab = alpha_bar[t].view(-1, 1, 1)
    noisy = ab.sqrt() * plans + (1 - ab).sqrt() * torch.randn_like(plans)
    opt.zero_grad()
    loss = F.mse_loss(value_fn(noisy, t).squeeze(-1), true_return(plans) / 10.0)
    loss.backward()
    opt.step()
assert not torch.equal(w0, value_fn.net[0].weight)

# 2) guided sampling under no_grad: gradient with respect to the sample only
denoiser = Denoiser()
guide = ValueGuide(value_fn)
weights_before = [p.clone() for p in list(value_fn.parameters()) + list(denoiser.parameters())]
for p in value_fn.parameters():
    p.grad = None

probe = torch.randn(4, H, D)
with torch.no_grad():
    with torch.enable_grad():
        _, g = guide.gradients(probe, torch.zeros(4, dtype=torch.long))
assert torch.isfinite(g).all() and g.abs().sum() > 0

torch.manual_seed(3)
start = torch.randn(32, H, D)
plain = sample(denoiser, guide, start.clone(), scale=0.0)
guided = sample(denoiser, guide, start.clone(), scale=0.5)
assert true_return(guided).mean() > true_return(plain).mean() + 1.0
assert all(torch.equal(b, p) for b, p in zip(weights_before, list(value_fn.parameters()) + list(denoiser.parameters())))
assert all(p.grad is None for p in value_fn.parameters())
print("mean return  unguided: %.2f  guided: %.2f" % (true_return(plain).mean(), true_return(guided).mean()))

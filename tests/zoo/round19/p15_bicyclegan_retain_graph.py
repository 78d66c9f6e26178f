"""
expect: none
dynamic: dismiss
source: https://github.com/junyanz/BicycleGAN/issues/81

The question asks why BicycleGAN's `backward_EG` calls `loss_G.backward(retain_graph=True)`.
The author's answer: `backward_G_alone` backpropagates the latent regression loss
(||E(G(A, z_random)) - z_random||) through part of the same graph right afterwards, before the
optimizers step. The retained graph belongs to the current iteration only; nothing carries it
into the next one. This program rebuilds one cVAE-GAN + cLR-GAN iteration (E, G, D on tiny
tensors); the asserts show both backward calls succeed, the graph reached by backward has the
same size every iteration, and E and G are trained.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
NZ = 4


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 32), nn.ReLU())
        self.mu, self.logvar = nn.Linear(32, NZ), nn.Linear(32, NZ)

    def forward(self, x):
        h = self.body(x)
        return self.mu(h), self.logvar(h)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3 + NZ, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 3, padding=1))

    def forward(self, a, z):
        return torch.tanh(self.net(torch.cat([a, z[:, :, None, None].expand(-1, -1, 8, 8)], 1)))


E, G = Encoder(), Generator()
D = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(8 * 64, 1))
opt_E, opt_G = torch.optim.Adam(E.parameters(), 1e-3), torch.optim.Adam(G.parameters(), 1e-3)
opt_D = torch.optim.Adam(D.parameters(), 1e-3)
gan = lambda logits, real: F.binary_cross_entropy_with_logits(logits, torch.full_like(logits, float(real)))

e0, g0 = E.mu.weight.detach().clone(), G.net[0].weight.detach().clone()
sizes = []
for it in range(5):
    real_A, real_B = torch.rand(4, 3, 8, 8), torch.rand(4, 3, 8, 8)
    mu, logvar = E(real_B)
    z_encoded = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
    fake_B_encoded = G(real_A, z_encoded)
    z_random = torch.randn(4, NZ)
    fake_B_random = G(real_A, z_random)
    mu2, _ = E(fake_B_random)

    opt_D.zero_grad()
    loss_D = gan(D(real_B), True) + gan(D(fake_B_encoded.detach()), False) + gan(D(fake_B_random.detach()), False)
    loss_D.backward()
    opt_D.step()

    for p in D.parameters():
        p.requires_grad_(False)
    opt_E.zero_grad(); opt_G.zero_grad()
    kl = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
    loss_G = gan(D(fake_B_encoded), True) + gan(D(fake_B_random), True) + 10 * F.l1_loss(fake_B_encoded, real_B) + 0.01 * kl
    loss_G.backward(retain_graph=True)
    loss_z_L1 = 0.5 * F.l1_loss(mu2, z_random)
    loss_z_L1.backward()
    opt_E.step(); opt_G.step()
    for p in D.parameters():
        p.requires_grad_(True)
    sizes.append(graph_size(loss_G))

assert len(set(sizes)) == 1, sizes
assert not torch.equal(E.mu.weight, e0) and not torch.equal(G.net[0].weight, g0)
print("p15 ok: retain_graph used within one iteration only; graph size", sizes[0])

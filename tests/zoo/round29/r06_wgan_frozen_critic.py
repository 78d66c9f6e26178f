"""
expect: none
dynamic: dismiss
source: https://github.com/caogang/wgan-gp/issues/46

WGAN-GP trainer that sets the critic's parameters to requires_grad=False during
the generator step (and back to True for the critic step). The issue asked whether
this stops the generator's gradient; it does not: freezing leaf parameters only
skips their .grad, the path through the critic's activations to the generator is
intact. The asserts show the generator gets the same gradient as without the
freeze, the critic's .grad stays untouched in the G step, and G's loss drops.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def set_requires_grad(net, flag):
    for p in net.parameters():
        p.requires_grad = flag


class WGANGP:
    def __init__(self, G, D):
        self.G, self.D = G, D
        self.opt_g = torch.optim.Adam(G.parameters(), 1e-3, betas=(0.5, 0.9))
        self.opt_d = torch.optim.Adam(D.parameters(), 1e-3, betas=(0.5, 0.9))

    def critic_step(self, real, z):
        set_requires_grad(self.D, True)
        with torch.no_grad():
            fake = self.G(z)
        eps = torch.rand(real.size(0), 1)
        mix = (eps * real + (1 - eps) * fake).requires_grad_(True)
        grad = torch.autograd.grad(self.D(mix).sum(), mix, create_graph=True)[0]
        gp = ((grad.norm(2, dim=1) - 1) ** 2).mean()
        loss = self.D(fake).mean() - self.D(real).mean() + 10 * gp
        self.opt_d.zero_grad(); loss.backward(); self.opt_d.step()

    def generator_loss(self, z):
        set_requires_grad(self.D, False)
        return -self.D(self.G(z)).mean()

    def generator_step(self, z):
        self.opt_d.zero_grad()
        loss = self.generator_loss(z)
        self.opt_g.zero_grad(); loss.backward(); self.opt_g.step()
        return loss.item()


G = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
D = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 1))
gan = WGANGP(G, D)
real = torch.randn(64, 2) * 0.5 + 2.0
z = torch.randn(64, 4)
gan.critic_step(real, z)

# gradient into G with the freeze equals gradient without it
gan.opt_g.zero_grad(); gan.opt_d.zero_grad()
gan.generator_loss(z).backward()
g_frozen = [p.grad.clone() for p in G.parameters()]
assert all(p.grad is None or p.grad.abs().sum() == 0 for p in D.parameters())
set_requires_grad(D, True)
G.zero_grad()
(-D(G(z)).mean()).backward()
assert all(torch.allclose(a, p.grad) for a, p in zip(g_frozen, G.parameters()))

first = gan.generator_step(z)
for _ in range(20):
    last = gan.generator_step(z)
assert last < first
print("ok")

"""
expect: none
dynamic: dismiss
source: https://github.com/clovaai/stargan-v2/issues/99

StarGAN v2's diversity-sensitive loss computes x_fake2 = nets.generator(x_real, s_trg2) and then
x_fake2 = x_fake2.detach() before loss_ds = mean|x_fake - x_fake2|; a user asked why the second
image is detached. The loss still reaches the generator and mapping network through the first
image x_fake; the detach only stops a second copy of the same gradient. This program rebuilds the
generator update with that loss. The asserts show the generator and mapping network get nonzero
gradients from loss_ds alone, and a few steps that maximise it (the sign StarGAN uses) increase
the diversity of the two outputs.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class MappingNetwork(nn.Module):
    def __init__(self, z_dim=4, s_dim=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 16), nn.ReLU(), nn.Linear(16, s_dim))

    def forward(self, z):
        return self.net(z)


class Generator(nn.Module):
    def __init__(self, x_dim=8, s_dim=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(x_dim + s_dim, 32), nn.ReLU(), nn.Linear(32, x_dim))

    def forward(self, x, s):
        return self.net(torch.cat([x, s], dim=1))


G, M = Generator(), MappingNetwork()
opt = torch.optim.Adam(list(G.parameters()) + list(M.parameters()), lr=1e-2)
x_real = torch.randn(16, 8)


def diversity_loss():
    z_trg, z_trg2 = torch.randn(16, 4), torch.randn(16, 4)
    x_fake = G(x_real, M(z_trg))
    x_fake2 = G(x_real, M(z_trg2))
    x_fake2 = x_fake2.detach()
    return torch.mean(torch.abs(x_fake - x_fake2))


torch.manual_seed(1)
opt.zero_grad()
loss_ds = diversity_loss()
loss_ds.backward()
assert G.net[0].weight.grad.abs().sum() > 0 and M.net[0].weight.grad.abs().sum() > 0

torch.manual_seed(2)
with torch.no_grad():
    start = diversity_loss().item()
for _ in range(30):
    opt.zero_grad()
    (-diversity_loss()).backward()
    opt.step()
torch.manual_seed(2)
with torch.no_grad():
    end = diversity_loss().item()
assert end > start, (start, end)
print("ok: detached second sample still trains G/M; diversity %.3f -> %.3f" % (start, end))

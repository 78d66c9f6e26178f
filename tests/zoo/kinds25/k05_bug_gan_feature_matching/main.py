"""
expect: GL001 main.py:47
dynamic: confirm
source: kinds check 25, kind 2

A toy GAN on 8-d vectors whose discriminator also returns its hidden features. The generator
loss object (losses.py) is adv + fm_weight * feature_matching(real_feats, fake_feats). The
generator step hands it the fake features detached as well as the real ones, so the
feature-matching term is built only from cut values: it adds a number but gives the generator
no gradient, and fm_weight changes nothing. (The fake.detach() in the D step is normal.)
"""
import torch
import torch.nn as nn

from losses import GeneratorLoss, discriminator_loss

torch.manual_seed(0)
torch.set_num_threads(1)


class Disc(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(8, 32)
        self.l2 = nn.Linear(32, 32)
        self.head = nn.Linear(32, 1)

    def forward(self, x):
        f1 = torch.relu(self.l1(x))
        f2 = torch.relu(self.l2(f1))
        return self.head(f2).squeeze(-1), [f1, f2]


G = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 8))
D = Disc()
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
g_crit = GeneratorLoss(fm_weight=10.0)
real = torch.randn(64, 8) * 0.5 + 1.0


def generator_objective(noise, crit):
    fake = G(noise)
    fake_logits, fake_feats = D(fake)
    with torch.no_grad():
        _, real_feats = D(real)
    fake_feats = [f.detach() for f in fake_feats]
    return crit(fake_logits, real_feats, fake_feats), crit.feature_matching(real_feats, fake_feats)


for step in range(10):
    noise = torch.randn(64, 4)
    d_real, _ = D(real)
    d_fake, _ = D(G(noise).detach())
    d_loss = discriminator_loss(d_real, d_fake)
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    g_loss, _ = generator_objective(noise, g_crit)
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()

noise = torch.randn(64, 4)
G.zero_grad()
loss_w, fm = generator_objective(noise, g_crit)
loss_w.backward()
g_w = [p.grad.clone() for p in G.parameters()]
G.zero_grad()
loss_0, _ = generator_objective(noise, GeneratorLoss(fm_weight=0.0))
loss_0.backward()
g_0 = [p.grad.clone() for p in G.parameters()]
assert fm.item() > 0.0
assert all(torch.equal(a, b) for a, b in zip(g_w, g_0)), "fm_weight changes no generator gradient"
print("ok: feature-matching term is dead, value", round(fm.item(), 4))

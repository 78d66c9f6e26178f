"""
expect: GL003 92, GL001 86
dynamic: confirm
source: https://github.com/Fernandotnco/TPMIR/blob/010da68fa73c2b0b7554c6f800490bb669cfd624/train.py

TPMIR adapts the ST-CGAN training script to predict the next bar of a piano roll
(an image) from the previous bar: G maps prevImgs to newCompass, and a pairwise
discriminator sees [fake, real] and [real, fake] stacks and must tell which side
is real. The discriminator step correctly uses fake.detach(). The generator step
was copied from it, so D is again fed fake.detach(): the generator loss then has no
path back to G, backward() raised "element 0 of tensors does not require grad", and
the script silenced it with G_loss.requires_grad = True. Everything runs and G_loss
is printed every epoch, but optimizerG.step() never changes the generator. This
reduction keeps the pairwise D, the two steps and the flag; the asserts show that
after several iterations every generator weight is bit-identical to its initial
value and its .grad is None, while the fixed generator step (no detach, no flag)
gives the generator gradients and moves it.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(8, 1, 3, padding=1), nn.Tanh())

    def forward(self, prev_bar):
        return self.net(prev_bar)


class PairDiscriminator(nn.Module):
    # input: two (prev | bar) images stacked on the channel axis; output: 2 logits
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(2, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
                                 nn.Conv2d(8, 2, 3, stride=2, padding=1),
                                 nn.AdaptiveAvgPool2d(1))

    def forward(self, x):
        return self.net(x)


def piano_roll_pairs(n=8, pitches=8, steps=8):
    prev = -torch.ones(n, 1, pitches, steps)
    nxt = -torch.ones(n, 1, pitches, steps)
    for b in range(n):
        p = int(torch.randint(0, pitches - 2, (1,)))
        prev[b, 0, p, :] = 1.0
        nxt[b, 0, p + 2, :] = 1.0        # next bar: same rhythm a step higher
    return nxt, prev


def train(G, D, steps, fixed):
    optG = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
    optD = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
    crit = nn.BCEWithLogitsLoss()
    for _ in range(steps):
        images, prev_imgs = piano_roll_pairs()
        n = images.shape[0]
        zeros, ones = torch.zeros(n, 1, 1, 1), torch.ones(n, 1, 1, 1)
        label_1 = torch.cat([zeros, ones], dim=1)     # [fake, real]
        label_2 = torch.cat([ones, zeros], dim=1)     # [real, fake]

        # discriminator step
        for p in D.parameters():
            p.requires_grad = True
        optD.zero_grad()
        new_bar = G(prev_imgs)
        fake_d = torch.cat([prev_imgs, new_bar], dim=3).detach()
        real = torch.cat([prev_imgs, images], dim=3)
        d_loss = crit(D(torch.cat([fake_d, real], 1)), label_1) + \
            crit(D(torch.cat([real, fake_d], 1)), label_2)
        d_loss.backward()
        optD.step()

        # generator step
        for p in D.parameters():
            p.requires_grad = False
        optG.zero_grad()
        if not fixed:
            fake_g = torch.cat([prev_imgs, new_bar], dim=3).detach()
        else:
            fake_g = torch.cat([prev_imgs, new_bar], dim=3)
        g_loss = crit(D(torch.cat([fake_g, real], 1)), label_2) + \
            crit(D(torch.cat([real, fake_g], 1)), label_1)
        if not fixed:
            g_loss.requires_grad = True
        g_loss.backward()
        optG.step()
    return g_loss.item()


for fixed in (False, True):
    torch.manual_seed(1)
    G, D = Generator(), PairDiscriminator()
    g0 = [p.detach().clone() for p in G.parameters()]
    d0 = [p.detach().clone() for p in D.parameters()]
    train(G, D, steps=15, fixed=fixed)
    g_moved = any(not torch.equal(a, b) for a, b in zip(g0, G.parameters()))
    d_moved = any(not torch.equal(a, b) for a, b in zip(d0, D.parameters()))
    assert d_moved
    if fixed:
        assert g_moved
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in G.parameters())
    else:
        assert not g_moved, "generator should be frozen by the detached G step"
        assert all(p.grad is None for p in G.parameters())

print("r15 ok: with detach + requires_grad=True the generator never updates; fixed step trains it")

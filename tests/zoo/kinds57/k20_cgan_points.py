"""
expect: GL001 50
dynamic: confirm
source: none, invented

A class-conditional GAN learns three 2-D Gaussian clusters. The projection discriminator's `forward(x,
labels)` runs `self.body(x.detach())` -- written so that the discriminator update would not
backpropagate into the generator -- and adds a label projection. The generator's loss is the
non-saturating loss on `disc(fake, labels)`, which reaches the generator only through that module, and
the generator optimizer steps only the generator, so the generator never gets a gradient. The asserts
show the generator's `.grad` is None and its weights unchanged after training, while with the
discriminator's `forward` taking `x` as given (`PlainProjectionDisc`) the generator gets gradients and
its samples move much closer to their class means.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_CLASSES, Z_DIM = 3, 4
CENTERS = torch.tensor([[2.0, 0.0], [-1.0, 1.7], [-1.0, -1.7]])


class CondGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.label_emb = nn.Embedding(N_CLASSES, 8)
        self.net = nn.Sequential(nn.Linear(Z_DIM + 8, 64), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, z, labels):
        return self.net(torch.cat([z, self.label_emb(labels)], -1))


class ProjectionDisc(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(2, 64), nn.LeakyReLU(0.2),
            nn.Linear(64, 64), nn.LeakyReLU(0.2),
        )
        self.out = nn.Linear(64, 1)
        self.embed = nn.Embedding(N_CLASSES, 64)

    def score(self, h, labels):
        return self.out(h).squeeze(-1) + (self.embed(labels) * h).sum(-1)

    def forward(self, x, labels):
        h = self.body(x.detach())
        return self.score(h, labels)


class PlainProjectionDisc(ProjectionDisc):
    def forward(self, x, labels):
        return self.score(self.body(x), labels)


def real_batch(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    return CENTERS[labels] + 0.1 * torch.randn(n, 2), labels


def center_error(gen):
    with torch.no_grad():
        labels = torch.arange(N_CLASSES).repeat_interleave(200)
        z = torch.randn(labels.numel(), Z_DIM, generator=torch.Generator().manual_seed(1))
        fake = gen(z, labels)
        return (fake - CENTERS[labels]).norm(dim=-1).mean().item()


def train_gan(disc_cls, iters=400, batch=64):
    torch.manual_seed(0)
    gen, disc = CondGenerator(), disc_cls()
    g_opt = torch.optim.Adam(gen.parameters(), lr=2e-3, betas=(0.5, 0.999))
    d_opt = torch.optim.Adam(disc.parameters(), lr=2e-3, betas=(0.5, 0.999))
    g_w0 = gen.net[0].weight.detach().clone()
    err0 = center_error(gen)
    for it in range(iters):
        real, labels = real_batch(batch)
        fake = gen(torch.randn(batch, Z_DIM), labels)
        d_loss = F.softplus(-disc(real, labels)).mean() + F.softplus(disc(fake.detach(), labels)).mean()
        d_opt.zero_grad()
        d_loss.backward()
        d_opt.step()

        g_loss = F.softplus(-disc(fake, labels)).mean()
        g_opt.zero_grad()
        g_loss.backward()
        g_opt.step()
    return gen, g_w0, err0, center_error(gen)


if __name__ == "__main__":
    gen, g_w0, err0, err = train_gan(ProjectionDisc)
    assert all(p.grad is None for p in gen.parameters())
    assert torch.equal(gen.net[0].weight, g_w0) and err == err0

    gen, g_w0, err0, err_ref = train_gan(PlainProjectionDisc)
    assert gen.net[0].weight.grad is not None and not torch.equal(gen.net[0].weight, g_w0)
    assert err_ref < 0.5 * err0, (err0, err_ref)
    print(f"mean distance to class center: start {err0:.2f}, ProjectionDisc {err:.2f}, plain {err_ref:.2f}")

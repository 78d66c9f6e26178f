"""
expect: GL005 main.py:93, GL005 main.py:94
dynamic: confirm
source: none, invented

A MelGAN-style waveform GAN: the discriminator is one module with two sub-discriminators, one on
the raw signal (disc.full) and one on an average-pooled copy (disc.coarse). Each scale has its own
optimizer and its own hinge loss, and train_helpers.step_on does zero_grad/backward/step. The
training loop scores the fake batch for the generator first (g_loss goes through both scales, so
its graph keeps both scales' conv weights), then steps opt_full and opt_coarse, and only then calls
step_on(opt_g, g_loss). Each of the two discriminator steps edits weights that g_loss saved, so the
generator backward fails. The asserts catch the "modified by an inplace operation" RuntimeError and
show that re-scoring the fakes after the discriminator update trains the generator and both scales.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from train_helpers import feature_matching, step_on

SIG_LEN = 64


class Generator(nn.Module):
    def __init__(self, z_dim=16, ch=32):
        super().__init__()
        self.fc = nn.Linear(z_dim, ch * SIG_LEN // 4)
        self.up = nn.Sequential(
            nn.ConvTranspose1d(ch, ch, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.ConvTranspose1d(ch, ch // 2, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv1d(ch // 2, 1, 7, padding=3),
        )
        self.ch = ch

    def forward(self, z):
        h = self.fc(z).view(z.size(0), self.ch, SIG_LEN // 4)
        return torch.tanh(self.up(h))


class ScaleDisc(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.blocks = nn.ModuleList([
            nn.Conv1d(1, ch, 15, padding=7),
            nn.Conv1d(ch, ch * 2, 41, stride=4, padding=20),
            nn.Conv1d(ch * 2, ch * 2, 5, padding=2),
        ])
        self.out = nn.Conv1d(ch * 2, 1, 3, padding=1)

    def forward(self, x):
        feats = []
        for conv in self.blocks:
            x = F.leaky_relu(conv(x), 0.2)
            feats.append(x)
        return self.out(x), feats


class MultiScaleDisc(nn.Module):
    def __init__(self):
        super().__init__()
        self.full = ScaleDisc()
        self.coarse = ScaleDisc()
        self.pool = nn.AvgPool1d(4, stride=2, padding=1, count_include_pad=False)

    def forward(self, wav):
        return [self.full(wav), self.coarse(self.pool(wav))]


def real_batch(n):
    t = torch.linspace(0, 1, SIG_LEN)
    freq = torch.randint(2, 9, (n, 1)).float()
    phase = torch.rand(n, 1) * 6.28
    return (0.8 * torch.sin(6.28 * freq * t + phase)).unsqueeze(1)


def train(steps, rescore_after_d=False):
    gen, disc = Generator(), MultiScaleDisc()
    opt_g = torch.optim.Adam(gen.parameters(), lr=2e-4, betas=(0.5, 0.9))
    opt_full = torch.optim.Adam(disc.full.parameters(), lr=2e-4, betas=(0.5, 0.9))
    opt_coarse = torch.optim.Adam(disc.coarse.parameters(), lr=1e-4, betas=(0.5, 0.9))
    history = []
    for _ in range(steps):
        real = real_batch(16)
        fake = gen(torch.randn(16, 16))

        if not rescore_after_d:
            scored = disc(fake)
            g_loss = sum(-s.mean() for s, _ in scored)

        real_out, fake_out = disc(real), disc(fake.detach())
        d_full = F.relu(1 - real_out[0][0]).mean() + F.relu(1 + fake_out[0][0]).mean()
        d_coarse = F.relu(1 - real_out[1][0]).mean() + F.relu(1 + fake_out[1][0]).mean()
        step_on(opt_full, d_full)
        step_on(opt_coarse, d_coarse)

        if rescore_after_d:
            scored = disc(fake)
            g_loss = sum(-s.mean() for s, _ in scored)
            g_loss = g_loss + 2.0 * sum(
                feature_matching(r[1], f[1]) for r, f in zip(disc(real), scored))
        history.append(step_on(opt_g, g_loss))
    return gen, disc, history


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    try:
        train(steps=1)
        raise AssertionError("generator backward should have failed")
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err

    torch.manual_seed(0)
    ref_gen = Generator()
    torch.manual_seed(0)
    gen, disc, history = train(steps=5, rescore_after_d=True)
    assert all(not torch.equal(a, b) for a, b in zip(ref_gen.parameters(), gen.parameters()))
    for scale in (disc.full, disc.coarse):
        assert scale.out.weight.grad is not None and scale.out.weight.grad.abs().sum() > 0
    print("multiscale wavegan: ok, %d generator steps after the failing one" % len(history))


if __name__ == "__main__":
    main()

"""
expect: none
dynamic: dismiss
source: https://github.com/Mddct/transformer-vocos/blob/main/vocos/train_utils.py

One training step of a GAN vocoder (Vocos-style): a generator turns waveforms into
resynthesised waveforms, a discriminator scores real and generated audio. The
discriminator step feeds `wav_g.detach()` so its loss cannot reach the generator; the
generator step recomputes the discriminator on the attached `wav_g`, takes the real
feature maps under `torch.no_grad()` (they are only targets of the feature-matching
loss), and the per-discriminator adversarial terms are appended to a log list with
`.detach()` while the attached terms are summed into the loss. All of these cuts are
intended. The asserts check that the discriminator step leaves the generator without
gradients, that the adversarial and feature-matching terms alone still give the
generator a gradient, and that a few alternating steps move both networks.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, 16, 7, padding=3), nn.GELU(), nn.Conv1d(16, 1, 7, padding=3))

    def forward(self, wav):
        return torch.tanh(self.net(wav.unsqueeze(1))).squeeze(1)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Conv1d(1, 8, 5, stride=2, padding=2), nn.Conv1d(8, 8, 5, stride=2, padding=2)])
        self.post = nn.Conv1d(8, 1, 3, padding=1)

    def forward(self, wav):
        x, fmaps = wav.unsqueeze(1), []
        for layer in self.layers:
            x = F.leaky_relu(layer(x), 0.1)
            fmaps.append(x)
        return self.post(x).flatten(1), fmaps


def mel_like(wav):
    spec = torch.stft(wav, n_fft=64, hop_length=16, window=torch.hann_window(64), return_complex=True).abs()
    return torch.log(spec.clamp(min=1e-5))


def compute_generator_loss(disc_outputs):
    total_loss = torch.tensor(0.0)
    gen_losses = []
    for dg in disc_outputs:
        loss_term = torch.mean((1 - dg) ** 2)
        gen_losses.append(loss_term.detach())
        total_loss = total_loss + loss_term
    return total_loss / len(gen_losses), gen_losses


def compute_discriminator_loss(real_outputs, gen_outputs):
    loss = 0.0
    for dr, dg in zip(real_outputs, gen_outputs):
        loss = loss + torch.mean((1 - dr) ** 2) + torch.mean(dg ** 2)
    return loss


def feature_matching_loss(fmap_r, fmap_g):
    return sum(torch.mean(torch.abs(r - g)) for r, g in zip(fmap_r, fmap_g))


def train_step(gen, discs, opt_gen, opt_disc, wav, check=False):
    wav_g = gen(wav)
    opt_disc.zero_grad()
    real = [d(wav)[0] for d in discs]
    fake = [d(wav_g.detach())[0] for d in discs]
    disc_loss = compute_discriminator_loss(real, fake)
    disc_loss.backward()
    if check:
        assert all(p.grad is None for p in gen.parameters())
        assert all(d.post.weight.grad.abs().sum() > 0 for d in discs)
    opt_disc.step()

    gen_loss = 45.0 * F.l1_loss(mel_like(wav_g), mel_like(wav))
    with torch.no_grad():
        fmap_rs = [d(wav)[1] for d in discs]
    scores_g, fmap_gs = zip(*[d(wav_g) for d in discs])
    loss_adv, logged = compute_generator_loss(scores_g)
    loss_fm = sum(feature_matching_loss(r, g) for r, g in zip(fmap_rs, fmap_gs))
    if check:
        adv_grads = torch.autograd.grad(loss_adv + loss_fm, list(gen.parameters()), retain_graph=True)
        assert all(g.abs().sum() > 0 for g in adv_grads)
        assert all(not t.requires_grad for t in logged)
    gen_loss = gen_loss + loss_adv + loss_fm
    opt_gen.zero_grad()
    gen_loss.backward()
    opt_gen.step()
    return disc_loss.item(), gen_loss.item()


torch.manual_seed(0)
torch.set_num_threads(1)
wav = torch.sin(torch.linspace(0, 40, 256)).repeat(4, 1) * torch.rand(4, 1)
gen, discs = Generator(), [Discriminator(), Discriminator()]
opt_gen = torch.optim.AdamW(gen.parameters(), lr=1e-3, betas=(0.8, 0.9))
opt_disc = torch.optim.AdamW([p for d in discs for p in d.parameters()], lr=1e-3, betas=(0.8, 0.9))
g0 = gen.net[0].weight.detach().clone()
d0 = discs[0].post.weight.detach().clone()
for step in range(5):
    d_loss, g_loss = train_step(gen, discs, opt_gen, opt_disc, wav, check=(step == 0))
assert not torch.equal(g0, gen.net[0].weight)
assert not torch.equal(d0, discs[0].post.weight)
print("gan step ok: disc", round(d_loss, 3), "gen", round(g_loss, 3))

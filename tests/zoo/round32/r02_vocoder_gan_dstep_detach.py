"""
expect: none
dynamic: dismiss
source: https://github.com/rishikksh20/Avocodo-pytorch/issues/4

A user of a GAN vocoder asked why the generated waveform is detached when it is fed to the
discriminator in one place but not in another. The detach sits in the discriminator update,
where the generator must not receive gradient; the generator update re-scores the same
waveform without detach. This look-alike reproduces that two-phase trainer step; the asserts
prove the D step leaves the generator's grads untouched, and that the G step does train the
generator through the discriminator (adversarial term changes the generator's gradient).
"""
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Generator(nn.Module):
    def __init__(self, n_mels=8, hop=16):
        super().__init__()
        self.pre = nn.Conv1d(n_mels, 16, 3, padding=1)
        self.up = nn.ConvTranspose1d(16, 8, hop, stride=hop)
        self.post = nn.Conv1d(8, 1, 7, padding=3)

    def forward(self, mel):
        return torch.tanh(self.post(F.leaky_relu(self.up(F.leaky_relu(self.pre(mel))))))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleList([nn.Conv1d(1, 8, 15, stride=2, padding=7),
                                    nn.Conv1d(8, 16, 15, stride=2, padding=7)])
        self.out = nn.Conv1d(16, 1, 3, padding=1)

    def forward(self, wav):
        fmaps = []
        for c in self.convs:
            wav = F.leaky_relu(c(wav), 0.1)
            fmaps.append(wav)
        return self.out(wav), fmaps


class VocoderTrainer:
    def __init__(self, adv_weight=1.0):
        self.gen, self.disc = Generator(), Discriminator()
        self.opt_g = torch.optim.AdamW(self.gen.parameters(), 2e-4)
        self.opt_d = torch.optim.AdamW(self.disc.parameters(), 2e-4)
        self.adv_weight = adv_weight

    def d_step(self, mel, wav):
        fake = self.gen(mel)
        self.opt_d.zero_grad()
        real_score, _ = self.disc(wav)
        fake_score, _ = self.disc(fake.detach())  # D update only
        loss_d = ((1 - real_score) ** 2).mean() + (fake_score ** 2).mean()
        loss_d.backward()
        self.opt_d.step()
        return fake

    def g_step(self, mel, wav, fake):
        self.opt_g.zero_grad()
        fake_score, fake_maps = self.disc(fake)
        _, real_maps = self.disc(wav)
        adv = ((1 - fake_score) ** 2).mean()
        fm = sum(F.l1_loss(f, r.detach()) for f, r in zip(fake_maps, real_maps))
        recon = F.l1_loss(fake, wav)
        loss_g = recon + self.adv_weight * (adv + 2.0 * fm)
        loss_g.backward()
        return loss_g


mel = torch.randn(2, 8, 20)
wav = torch.randn(2, 1, 320).clamp(-1, 1)

tr = VocoderTrainer()
fake = tr.d_step(mel, wav)
# the D step must not have sent anything into the generator
assert all(p.grad is None for p in tr.gen.parameters())
assert all(p.grad is not None for p in tr.disc.parameters())

tr.g_step(mel, wav, fake)
g_adv = [p.grad.clone() for p in tr.gen.parameters()]

ref = VocoderTrainer(adv_weight=0.0)
ref.gen.load_state_dict(tr.gen.state_dict())
ref.disc.load_state_dict(tr.disc.state_dict())
ref.g_step(mel, wav, ref.gen(mel))
g_recon = [p.grad.clone() for p in ref.gen.parameters()]
diff = max((a - b).abs().max().item() for a, b in zip(g_adv, g_recon))
assert diff > 1e-5, diff  # adversarial + feature-matching terms reach the generator
tr.opt_g.step()
print("ok: D step isolated, G step trains generator through D", diff)

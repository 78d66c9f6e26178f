"""
expect: none
dynamic: dismiss
source: https://github.com/ruizhecao96/CMGAN/blob/main/src/train.py

MetricGAN-style speech enhancement trainer. The generator (a magnitude mask estimator)
is updated first with spectral, waveform and adversarial-metric losses, where the metric
discriminator is run on the attached estimate. Then the discriminator step reuses the
same generator outputs: the enhanced waveform is detached and moved to NumPy to compute
a PESQ-like score per utterance, those scores are wrapped with torch.FloatTensor as
regression targets, and the discriminator sees est_mag.detach(). Both the NumPy round
trip and the detach are on purpose: the score is a label for the discriminator (it never
needs a gradient), and the detach keeps the discriminator loss away from the generator,
whose optimizer already stepped. The asserts show the generator gets gradients (also
through the discriminator) during its step, the discriminator step leaves the generator
untouched, and the discriminator learns to regress the metric.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from metric_disc import MetricDiscriminator, batch_quality

torch.manual_seed(0)
torch.set_num_threads(1)

N_FFT, HOP = 64, 16
WINDOW = torch.hann_window(N_FFT)
FREQ = N_FFT // 2 + 1


class MaskEnhancer(nn.Module):
    def __init__(self):
        super().__init__()
        self.mask = nn.Sequential(nn.Linear(FREQ, 48), nn.ReLU(), nn.Linear(48, FREQ), nn.Sigmoid())

    def forward(self, noisy):
        spec = torch.stft(noisy, N_FFT, HOP, window=WINDOW, return_complex=True)
        mag, phase = spec.abs(), torch.angle(spec)
        est_mag = self.mask(mag.transpose(1, 2)).transpose(1, 2) * mag
        est = torch.polar(est_mag, phase)
        est_audio = torch.istft(est, N_FFT, HOP, window=WINDOW, length=noisy.shape[-1])
        return est_mag, est_audio


def magnitude(wave):
    return torch.stft(wave, N_FFT, HOP, window=WINDOW, return_complex=True).abs()


class Trainer:
    def __init__(self):
        self.gen, self.disc = MaskEnhancer(), MetricDiscriminator(FREQ)
        self.opt_g = torch.optim.AdamW(self.gen.parameters(), lr=2e-3)
        self.opt_d = torch.optim.AdamW(self.disc.parameters(), lr=4e-3)

    def generator_step(self, clean, noisy):
        est_mag, est_audio = self.gen(noisy)
        clean_mag = magnitude(clean)
        adv = F.mse_loss(self.disc(clean_mag, est_mag), torch.ones(clean.shape[0]))
        loss = F.mse_loss(est_mag, clean_mag) + 0.2 * (est_audio - clean).abs().mean() + 0.05 * adv
        self.opt_g.zero_grad()
        loss.backward()
        grads = {n: p.grad is not None for n, p in self.gen.named_parameters()}
        self.opt_g.step()
        return {"clean_mag": clean_mag, "est_mag": est_mag, "est_audio": est_audio}, grads

    def discriminator_step(self, clean, outs):
        est_list = list(outs["est_audio"].detach().cpu().numpy())
        clean_list = list(clean.cpu().numpy())
        target_score = batch_quality(clean_list, est_list)
        pred_est = self.disc(outs["clean_mag"], outs["est_mag"].detach())
        pred_max = self.disc(outs["clean_mag"], outs["clean_mag"])
        d_loss = F.mse_loss(pred_max, torch.ones_like(pred_max)) + F.mse_loss(pred_est, target_score)
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()
        return d_loss.item()


clean = torch.randn(8, 512) * 0.5
noisy = clean + 0.4 * torch.randn(8, 512)
trainer = Trainer()

outs, g_grads = trainer.generator_step(clean, noisy)
assert all(g_grads.values())
gen_snapshot = [p.detach().clone() for p in trainer.gen.parameters()]
gen_grads = [p.grad.clone() for p in trainer.gen.parameters()]
d_losses = [trainer.discriminator_step(clean, outs)]
assert all(torch.equal(g, p.grad) for g, p in zip(gen_grads, trainer.gen.parameters()))
assert all(torch.equal(a, b) for a, b in zip(gen_snapshot, trainer.gen.parameters()))
assert all(p.grad is not None for p in trainer.disc.parameters())
for _ in range(40):
    d_losses.append(trainer.discriminator_step(clean, outs))
assert d_losses[-1] < 0.5 * d_losses[0], d_losses
print("discriminator metric loss %.4f -> %.4f, generator untouched by D step" % (d_losses[0], d_losses[-1]))

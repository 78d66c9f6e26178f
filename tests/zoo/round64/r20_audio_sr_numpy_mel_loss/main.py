"""
expect: GL002 main.py:66
dynamic: confirm
source: https://github.com/infected4098/Audio-Super-Resolution-with-Mamba/blob/9d045a398982ef8bc0e354c4cddf413bbcf24ac8/train.py#L143-L145

An audio super-resolution GAN (Mamba generator, HiFi-GAN MPD/MSD
discriminators) trains the generator with adversarial + feature-matching losses
and the HiFi-GAN "L1 mel loss x 45/50", which is normally the term that drives
reconstruction. The repository's utils.mel_spectrogram was rewritten on top of
librosa: it does `y.cpu().detach().numpy()` and returns a NumPy array, and
train.py rebuilds it with `y_g_hat_mel = torch.from_numpy(mel_spectrogram(y_g_hat
...))`. The generated mel is therefore a constant: loss_mel still appears in the
logged total, but its gradient to the generator is zero, so only the GAN terms
train the model. The reproduction (audio_utils.py holds the NumPy mel and a
torch twin) uses a tiny 2x upsampler and a small discriminator. The asserts
show the mel term is not connected to the generator with the NumPy mel (the
generator's gradient from adversarial + mel loss equals that from the
adversarial part alone), whereas with the torch mel the two gradients differ
and training on the mel loss lowers the mel error.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from audio_utils import mel_spectrogram, mel_spectrogram_torch

torch.manual_seed(0)
torch.set_num_threads(1)

B, L_LOW = 8, 128


def batch():
    t = torch.arange(2 * L_LOW).float() / 8000
    f = 300 + 1200 * torch.rand(B, 1)
    y_high = torch.sin(2 * torch.pi * f * t) + 0.3 * torch.sin(2 * torch.pi * 3 * f * t)
    y_low = y_high[:, ::2]  # naive 2x decimation
    return y_high, y_low


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose1d(1, 8, 4, stride=2, padding=1)
        self.post = nn.Conv1d(8, 1, 5, padding=2)

    def forward(self, x):
        return self.post(torch.tanh(self.up(x.unsqueeze(1)))).squeeze(1)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, 4, 9, stride=4), nn.LeakyReLU(0.1), nn.Conv1d(4, 1, 5))

    def forward(self, y):
        return self.net(y.unsqueeze(1))


def gen_losses(generator, mpd, y_high, y_low, torch_mel):
    y_g_hat = generator(y_low)
    y_mel = torch.from_numpy(mel_spectrogram(y_high)).float()
    if torch_mel:
        y_g_hat_mel = mel_spectrogram_torch(y_g_hat)
    else:
        y_g_hat_mel = torch.from_numpy(mel_spectrogram(y_g_hat)).float()
    loss_mel = F.l1_loss(y_mel, y_g_hat_mel) * 45
    loss_adv = ((1 - mpd(y_g_hat)) ** 2).mean()
    return loss_mel, loss_adv


def gen_grad(generator, loss):
    generator.zero_grad()
    loss.backward()
    return generator.up.weight.grad.clone()


y_high, y_low = batch()

# --- NumPy mel (as shipped) ---
torch.manual_seed(1)
gen, mpd = Generator(), Discriminator()
loss_mel, loss_adv = gen_losses(gen, mpd, y_high, y_low, torch_mel=False)
assert not loss_mel.requires_grad
g_all = gen_grad(gen, loss_adv + loss_mel)
loss_mel, loss_adv = gen_losses(gen, mpd, y_high, y_low, torch_mel=False)
g_adv = gen_grad(gen, loss_adv)
assert torch.allclose(g_all, g_adv)  # the reconstruction term adds nothing

# --- torch mel (fixed) ---
torch.manual_seed(1)
gen, mpd = Generator(), Discriminator()
loss_mel, loss_adv = gen_losses(gen, mpd, y_high, y_low, torch_mel=True)
g_all = gen_grad(gen, loss_adv + loss_mel)
loss_mel, loss_adv = gen_losses(gen, mpd, y_high, y_low, torch_mel=True)
g_adv = gen_grad(gen, loss_adv)
assert not torch.allclose(g_all, g_adv)  # now the mel term steers the generator
opt = torch.optim.Adam(gen.parameters(), lr=1e-2)
first = None
for _ in range(60):
    loss_mel, _ = gen_losses(gen, mpd, y_high, y_low, torch_mel=True)
    opt.zero_grad()
    loss_mel.backward()
    opt.step()
    first = loss_mel.item() if first is None else first
assert loss_mel.item() < 0.7 * first
print("numpy mel: no gradient to generator; torch mel: mel L1 %.2f -> %.2f" % (first, loss_mel.item()))

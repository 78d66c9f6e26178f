"""
expect: GL001 audio.py:35
dynamic: error
source: https://github.com/rishikksh20/HiFi-GAN/issues/8

A HiFi-GAN style vocoder generator is pre-trained with the mel-spectrogram L1 loss
only (the adversarial stage comes later). The mel helper in audio.py replaces the STFT
magnitudes by `magnitudes.data`, which cuts the generated waveform out of the autograd
record: the mel loss has no path back to the generator, so nothing upstream of the cut
can be trained and PyTorch refuses the backward. The program asserts that error, and
that the same loss computed without the `.data` gives every generator parameter a
gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from audio import build_mel_basis, mel_spectrogram

torch.manual_seed(0)

N_FFT, HOP, N_MELS = 64, 16, 8


class Generator(nn.Module):
    def __init__(self, n_mels=N_MELS, channels=16):
        super().__init__()
        self.pre = nn.Conv1d(n_mels, channels, 3, padding=1)
        self.up1 = nn.ConvTranspose1d(channels, channels // 2, 8, stride=4, padding=2)
        self.up2 = nn.ConvTranspose1d(channels // 2, channels // 4, 8, stride=4, padding=2)
        self.post = nn.Conv1d(channels // 4, 1, 7, padding=3)

    def forward(self, mel):
        x = F.leaky_relu(self.pre(mel), 0.1)
        x = F.leaky_relu(self.up1(x), 0.1)
        x = F.leaky_relu(self.up2(x), 0.1)
        return torch.tanh(self.post(x)).squeeze(1)


def make_batch(batch=4, frames=16):
    t = torch.arange(frames * HOP).float() / 8000.0
    freqs = torch.rand(batch, 1) * 600 + 200
    return 0.5 * torch.sin(2 * torch.pi * freqs * t)


def pretrain_step(generator, optimizer, mel_basis, mel_weight=45.0):
    wav = make_batch()
    mel = mel_spectrogram(wav, mel_basis, N_FFT, HOP)
    wav_hat = generator(mel)[:, : wav.shape[1]]
    mel_hat = mel_spectrogram(wav_hat, mel_basis, N_FFT, HOP)
    loss_mel = F.l1_loss(mel_hat, mel) * mel_weight
    optimizer.zero_grad()
    loss_mel.backward()
    optimizer.step()
    return loss_mel.item()


generator = Generator()
opt_g = torch.optim.AdamW(generator.parameters(), 2e-4, betas=(0.8, 0.99))
mel_basis = build_mel_basis(N_FFT, N_MELS)

raised = None
try:
    pretrain_step(generator, opt_g, mel_basis)
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "does not require grad" in raised, raised
assert all(p.grad is None for p in generator.parameters())

# Same mel computation, keeping the magnitudes on the autograd record.
wav = make_batch()
window = torch.hann_window(N_FFT)
mel = mel_spectrogram(wav, mel_basis, N_FFT, HOP)
wav_hat = generator(mel)[:, : wav.shape[1]]
spec_hat = torch.stft(wav_hat, N_FFT, hop_length=HOP, win_length=N_FFT, window=window,
                      center=True, return_complex=True)
mel_hat = torch.log(torch.clamp(torch.matmul(mel_basis, spec_hat.abs()), min=1e-5))
(F.l1_loss(mel_hat, mel) * 45).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in generator.parameters())

print("OK")

"""
expect: none
dynamic: dismiss
source: https://github.com/NVIDIA/tacotron2/blob/master/layers.py

A Tacotron-style text-to-mel setup. The feature front end (an STFT done with a fixed
Fourier basis as a strided conv1d, a mel filterbank and log compression) turns each
training waveform into the target mel-spectrogram, and the acoustic model is trained
to predict those targets from token ids. The front end drops the magnitudes from the
graph with .data before the mel projection, just as the linked layers.py does. That
cut is harmless here: the front end only produces data-loader targets, it holds no
trainable parameters and no loss is meant to flow into the waveform. The asserts
check that the targets carry no graph, that every parameter of the acoustic model
receives a gradient, and that the training loss goes down.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_FFT, HOP, N_MELS, VOCAB = 64, 16, 12, 20


def fourier_basis(n_fft):
    n = torch.arange(n_fft).float()
    k = torch.arange(n_fft // 2 + 1).float().unsqueeze(1)
    window = torch.hann_window(n_fft, periodic=True)
    real = torch.cos(2 * math.pi * k * n / n_fft) * window
    imag = -torch.sin(2 * math.pi * k * n / n_fft) * window
    return torch.cat([real, imag], dim=0).unsqueeze(1)


def mel_filterbank(n_mels, n_bins):
    centers = torch.linspace(0, n_bins - 1, n_mels + 2)
    bins = torch.arange(n_bins).float()
    fb = []
    for m in range(1, n_mels + 1):
        left, mid, right = centers[m - 1], centers[m], centers[m + 1]
        up = (bins - left) / (mid - left)
        down = (right - bins) / (right - mid)
        fb.append(torch.clamp(torch.minimum(up, down), min=0.0))
    return torch.stack(fb)


class MelFrontEnd(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("basis", fourier_basis(N_FFT))
        self.register_buffer("mel_basis", mel_filterbank(N_MELS, N_FFT // 2 + 1))

    def magnitudes(self, wav):
        spec = F.conv1d(wav.unsqueeze(1), self.basis, stride=HOP)
        half = spec.shape[1] // 2
        return torch.sqrt(spec[:, :half] ** 2 + spec[:, half:] ** 2)

    def mel_spectrogram(self, wav):
        assert wav.min() >= -1 and wav.max() <= 1
        mags = self.magnitudes(wav)
        mags = mags.data
        mel = torch.matmul(self.mel_basis, mags)
        return torch.log(torch.clamp(mel, min=1e-5))


class TextMelDataset:
    def __init__(self, n_items=16, n_tokens=8):
        self.front = MelFrontEnd()
        self.items = []
        for _ in range(n_items):
            tokens = torch.randint(0, VOCAB, (n_tokens,))
            t = torch.linspace(0, 1, N_FFT + HOP * (n_tokens - 1))
            freq = 3.0 + tokens.float().repeat_interleave(HOP)[: t.numel()].mean()
            wav = 0.8 * torch.sin(2 * math.pi * freq * t) * torch.rand(1)
            self.items.append((tokens, self.front.mel_spectrogram(wav.unsqueeze(0))[0]))

    def batch(self):
        tokens = torch.stack([t for t, _ in self.items])
        mels = torch.stack([m for _, m in self.items])
        return tokens, mels


class AcousticModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 32)
        self.rnn = nn.GRU(32, 32, batch_first=True)
        self.proj = nn.Linear(32, N_MELS)

    def forward(self, tokens):
        h, _ = self.rnn(self.embed(tokens))
        return self.proj(h).transpose(1, 2)


data = TextMelDataset()
tokens, target_mels = data.batch()
assert target_mels.grad_fn is None and not target_mels.requires_grad

model = AcousticModel()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
history = []
for _ in range(40):
    opt.zero_grad()
    pred = model(tokens)
    loss = F.mse_loss(pred, target_mels)
    loss.backward()
    opt.step()
    history.append(loss.item())

assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
assert history[-1] < history[0]
print("mel loss %.3f -> %.3f" % (history[0], history[-1]))

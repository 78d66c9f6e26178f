"""Small VITS2-style text-to-speech generator with a duration predictor, and a duration discriminator."""
import torch
import torch.nn as nn


class TextEncoder(nn.Module):
    def __init__(self, n_symbols=12, hidden=16):
        super().__init__()
        self.embed = nn.Embedding(n_symbols, hidden)
        self.conv = nn.Conv1d(hidden, hidden, 3, padding=1)

    def forward(self, tokens):                       # [B, L] -> [B, H, L]
        return torch.relu(self.conv(self.embed(tokens).transpose(1, 2)))


class DurationPredictor(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.conv = nn.Conv1d(hidden, hidden, 3, padding=1)
        self.proj = nn.Conv1d(hidden, 1, 1)

    def forward(self, x):
        x = torch.detach(x)                          # as in VITS: durations do not train the text encoder
        return self.proj(torch.relu(self.conv(x)))   # log-durations [B, 1, L]


class Generator(nn.Module):
    def __init__(self, hidden=16, n_mels=8):
        super().__init__()
        self.enc_p = TextEncoder(hidden=hidden)
        self.dp = DurationPredictor(hidden)
        self.dec = nn.Linear(hidden, n_mels)

    def forward(self, tokens, durations):
        x = self.enc_p(tokens)
        logw = self.dp(x)
        frames = torch.repeat_interleave(x[0].transpose(0, 1), durations[0], dim=0)
        mel_hat = self.dec(frames)                   # [frames, n_mels]
        return x, logw, mel_hat


class DurationDiscriminator(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.conv = nn.Conv1d(hidden + 1, hidden, 3, padding=1)
        self.out = nn.Conv1d(hidden, 1, 1)

    def score(self, x, dur):
        h = torch.relu(self.conv(torch.cat([x, dur], dim=1)))
        return torch.sigmoid(self.out(h)).mean()

    def forward(self, x, dur_r, dur_hat):
        x = torch.detach(x)
        return self.score(x, dur_r), self.score(x, dur_hat)

"""WaveNet-style epsilon predictor for a DiffWave vocoder: residual blocks with step and mel conditioning."""
import math

import torch
import torch.nn as nn


def step_embedding(steps, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / (half - 1))
    angles = steps.float().unsqueeze(1) * freqs.unsqueeze(0)
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=1)


class ResidualBlock(nn.Module):
    def __init__(self, channels, emb_dim, mel_bins, dilation):
        super().__init__()
        self.channels = channels
        self.fc_t = nn.Linear(emb_dim, channels)
        self.dilated = nn.Conv1d(channels, 2 * channels, 3, padding=dilation, dilation=dilation)
        self.mel_conv = nn.Conv1d(mel_bins, 2 * channels, 1)
        self.res_conv = nn.Conv1d(channels, channels, 1)
        self.skip_conv = nn.Conv1d(channels, channels, 1)

    def forward(self, x, mel, t_emb):
        h = x
        h += self.fc_t(t_emb).unsqueeze(-1)
        h = self.dilated(h) + self.mel_conv(mel)
        gated = torch.tanh(h[:, : self.channels]) * torch.sigmoid(h[:, self.channels :])
        return (x + self.res_conv(gated)) * math.sqrt(0.5), self.skip_conv(gated)


class WaveNetDenoiser(nn.Module):
    def __init__(self, channels=16, mel_bins=8, emb_in=32, emb_dim=32, layers=4, block=ResidualBlock):
        super().__init__()
        self.emb_in = emb_in
        self.init_conv = nn.Sequential(nn.Conv1d(1, channels, 1), nn.ReLU())
        self.t_mlp = nn.Sequential(nn.Linear(emb_in, emb_dim), nn.SiLU(), nn.Linear(emb_dim, emb_dim), nn.SiLU())
        self.blocks = nn.ModuleList(block(channels, emb_dim, mel_bins, 2 ** (i % 3)) for i in range(layers))
        self.final = nn.Sequential(nn.Conv1d(channels, channels, 1), nn.ReLU(), nn.Conv1d(channels, 1, 1))

    def forward(self, audio, mel, steps):
        x = self.init_conv(audio)
        t_emb = self.t_mlp(step_embedding(steps, self.emb_in))
        skip = 0.0
        for blk in self.blocks:
            x, s = blk(x, mel, t_emb)
            skip = skip + s
        return self.final(skip / math.sqrt(len(self.blocks)))

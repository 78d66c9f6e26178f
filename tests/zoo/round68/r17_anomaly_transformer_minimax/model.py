import math

import torch
import torch.nn as nn


class AnomalyAttention(nn.Module):
    def __init__(self, win_size, d_model):
        super().__init__()
        self.query = nn.Linear(d_model, d_model)
        self.key = nn.Linear(d_model, d_model)
        self.value = nn.Linear(d_model, d_model)
        self.sigma_projection = nn.Linear(d_model, 1)
        idx = torch.arange(win_size, dtype=torch.float32)
        self.register_buffer("distances", (idx.view(-1, 1) - idx.view(1, -1)).abs())

    def forward(self, x):
        d = x.size(-1)
        q, k, v = self.query(x), self.key(x), self.value(x)
        series = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(d), dim=-1)
        sigma = torch.sigmoid(self.sigma_projection(x) * 5) + 1e-5
        sigma = torch.pow(3, sigma) - 1
        prior = 1.0 / (math.sqrt(2 * math.pi) * sigma) * torch.exp(
            -self.distances.pow(2) / (2 * sigma.pow(2)))
        return series @ v, series, prior


class EncoderLayer(nn.Module):
    def __init__(self, win_size, d_model):
        super().__init__()
        self.attention = AnomalyAttention(win_size, d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.GELU(),
                                nn.Linear(2 * d_model, d_model))
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x):
        attn, series, prior = self.attention(x)
        x = self.norm1(x + attn)
        return self.norm2(x + self.ff(x)), series, prior


class AnomalyTransformer(nn.Module):
    def __init__(self, win_size, enc_in, d_model=16, e_layers=2):
        super().__init__()
        self.embedding = nn.Linear(enc_in, d_model)
        self.layers = nn.ModuleList([EncoderLayer(win_size, d_model) for _ in range(e_layers)])
        self.projection = nn.Linear(d_model, enc_in)

    def forward(self, x):
        h = self.embedding(x)
        series_list, prior_list = [], []
        for layer in self.layers:
            h, series, prior = layer(h)
            series_list.append(series)
            prior_list.append(prior)
        return self.projection(h), series_list, prior_list, None

"""Lightweight Temporal Attention Encoder (L-TAE) for satellite image time series."""
import torch
import torch.nn as nn


class LTAE(nn.Module):
    def __init__(self, in_channels=16, n_head=4, d_k=8, n_neurons=(16, 32), dropout=0.2, len_max_seq=12):
        super().__init__()
        self.n_head, self.d_k = n_head, d_k
        self.inconv = nn.Sequential(nn.Conv1d(in_channels, in_channels, 1), nn.LayerNorm((in_channels, len_max_seq)))
        self.position = nn.Embedding(len_max_seq, in_channels)
        self.fc_k = nn.Linear(in_channels, n_head * d_k)
        self.query = nn.Parameter(torch.randn(n_head, d_k) * 0.1)  # master query per head
        layers = []
        for i in range(len(n_neurons) - 1):
            layers += [nn.Linear(n_neurons[i], n_neurons[i + 1]),
                       nn.ReLU(),
                       nn.Dropout(dropout, inplace=True)]
        self.mlp = nn.Sequential(*layers)
        self.out_norm = nn.LayerNorm(n_neurons[-1])

    def forward(self, x):
        # x: (batch, seq_len, channels)
        b, t, c = x.shape
        x = self.inconv(x.transpose(1, 2)).transpose(1, 2)
        x = x + self.position(torch.arange(t))
        keys = self.fc_k(x).view(b, t, self.n_head, self.d_k)
        scores = torch.einsum("hd,bthd->bht", self.query, keys) / self.d_k ** 0.5
        attn = scores.softmax(-1)
        values = x.view(b, t, self.n_head, c // self.n_head)
        heads = torch.einsum("bht,bthc->bhc", attn, values).reshape(b, c)
        return self.out_norm(self.mlp(heads))

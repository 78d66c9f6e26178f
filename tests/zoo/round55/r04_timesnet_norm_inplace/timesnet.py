"""Compact TimesNet-style forecaster: instance normalisation, FFT period search and 2-D convolution."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def fft_for_period(x, k=2):
    xf = torch.fft.rfft(x, dim=1)
    frequency_list = abs(xf).mean(0).mean(-1)
    frequency_list[0] = 0
    _, top_list = torch.topk(frequency_list, k)
    top_list = top_list.detach().cpu().numpy()
    period = x.shape[1] // top_list
    return period, abs(xf).mean(-1)[:, top_list]


class TimesBlock(nn.Module):
    def __init__(self, seq_len, d_model, k=2):
        super().__init__()
        self.seq_len, self.k = seq_len, k
        self.conv = nn.Sequential(nn.Conv2d(d_model, d_model, 3, padding=1), nn.GELU(),
                                  nn.Conv2d(d_model, d_model, 3, padding=1))

    def forward(self, x):
        b, t, n = x.shape
        periods, period_weight = fft_for_period(x, self.k)
        res = []
        for p in periods:
            p = int(max(p, 1))
            length = ((t + p - 1) // p) * p
            out = torch.cat([x, x.new_zeros(b, length - t, n)], dim=1) if length > t else x
            out = out.reshape(b, length // p, p, n).permute(0, 3, 1, 2)
            out = self.conv(out).permute(0, 2, 3, 1).reshape(b, -1, n)
            res.append(out[:, :t])
        res = torch.stack(res, dim=-1)
        weight = F.softmax(period_weight, dim=1).unsqueeze(1).unsqueeze(1)
        return (res * weight).sum(-1) + x


class Model(nn.Module):
    def __init__(self, seq_len=24, pred_len=8, enc_in=3, d_model=8):
        super().__init__()
        self.pred_len = pred_len
        self.enc_embedding = nn.Linear(enc_in, d_model)
        self.predict_linear = nn.Linear(seq_len, seq_len + pred_len)
        self.block = TimesBlock(seq_len + pred_len, d_model)
        self.layer_norm = nn.LayerNorm(d_model)
        self.projection = nn.Linear(d_model, enc_in)

    def normalize(self, x_enc):
        means = x_enc.mean(1, keepdim=True)
        x_enc = x_enc - means
        stdev = torch.sqrt(torch.var(x_enc, dim=1, keepdim=True, unbiased=False) + 1e-5)
        x_enc /= stdev
        return x_enc, means, stdev

    def forecast(self, x_enc):
        x_enc, means, stdev = self.normalize(x_enc)
        enc_out = self.enc_embedding(x_enc)
        enc_out = self.predict_linear(enc_out.permute(0, 2, 1)).permute(0, 2, 1)
        enc_out = self.layer_norm(self.block(enc_out))
        dec_out = self.projection(enc_out)
        dec_out = dec_out * stdev + means
        return dec_out[:, -self.pred_len:, :]

    def forward(self, x_enc):
        return self.forecast(x_enc)

"""Convolutional GRU over the time series of field features + per-pixel classifier."""
import torch
import torch.nn as nn


class ConvGRUCell(nn.Module):
    def __init__(self, in_ch, hid_ch, k=3):
        super().__init__()
        self.hid_ch = hid_ch
        self.gates = nn.Conv2d(in_ch + hid_ch, 2 * hid_ch, k, padding=k // 2)
        self.cand = nn.Conv2d(in_ch + hid_ch, hid_ch, k, padding=k // 2)

    def forward(self, x, h):
        z, r = torch.sigmoid(self.gates(torch.cat([x, h], 1))).chunk(2, 1)
        n = torch.tanh(self.cand(torch.cat([x, r * h], 1)))
        return (1 - z) * h + z * n


class ConvGRU(nn.Module):
    def __init__(self, in_ch, hid_ch):
        super().__init__()
        self.cell = ConvGRUCell(in_ch, hid_ch)

    def forward(self, seq):  # seq: (B, T, C, H, W)
        b, t, _, hgt, wid = seq.shape
        h = seq.new_zeros(b, self.cell.hid_ch, hgt, wid)
        for i in range(t):
            h = self.cell(seq[:, i], h)
        return h


class CGRUSegmenter(nn.Module):
    def __init__(self, in_ch, hid_ch, num_classes, bidirectional=True, flip_in_numpy=True):
        super().__init__()
        self.cgru = ConvGRU(in_ch, hid_ch)
        self.bidirectional = bidirectional
        self.flip_in_numpy = flip_in_numpy
        out_in = hid_ch * 2 if bidirectional else hid_ch
        self.conv = nn.Conv2d(out_in, num_classes, 3, padding=1)
        self.last_rev_state = None

    def forward(self, inputs):
        final_state = self.cgru(inputs)
        if self.bidirectional:
            if self.flip_in_numpy:
                rev_inputs = torch.tensor(inputs.cpu().detach().numpy()[:, ::-1].copy(), dtype=torch.float32)
            else:
                rev_inputs = torch.flip(inputs, dims=[1])
            rev_state = self.cgru(rev_inputs)
            self.last_rev_state = rev_state
            final_state = torch.cat([final_state, rev_state], dim=1)
        return torch.log_softmax(self.conv(final_state), dim=1)

"""A small ConvLSTM with the 'stateful' option filled in, plus a next-frame predictor."""
import torch
import torch.nn as nn


class ConvLSTMCell(nn.Module):
    def __init__(self, in_ch, hid_ch, k=3):
        super().__init__()
        self.hid_ch = hid_ch
        self.conv = nn.Conv2d(in_ch + hid_ch, 4 * hid_ch, k, padding=k // 2)

    def forward(self, x, state):
        h, c = state
        i, f, o, g = torch.split(self.conv(torch.cat([x, h], dim=1)), self.hid_ch, dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, c


class ConvLSTM(nn.Module):
    def __init__(self, in_ch, hid_ch):
        super().__init__()
        self.cell = ConvLSTMCell(in_ch, hid_ch)
        self.hid_ch = hid_ch

    def forward(self, x, hidden_state=None):
        # x: [B, T, C, H, W]
        b, t, _, hgt, wid = x.shape
        if hidden_state is None:
            z = x.new_zeros(b, self.hid_ch, hgt, wid)
            hidden_state = (z, z)
        h, c = hidden_state
        outs = []
        for step in range(t):
            h, c = self.cell(x[:, step], (h, c))
            outs.append(h)
        return torch.stack(outs, dim=1), (h, c)


class NextFramePredictor(nn.Module):
    """Keeps the ConvLSTM state between calls so a long video can be fed in chunks."""

    def __init__(self, ch=1, hid=8):
        super().__init__()
        self.convlstm = ConvLSTM(ch, hid)
        self.head = nn.Conv2d(hid, ch, 1)
        self.hidden = None

    def reset_state(self):
        self.hidden = None

    def detach_state(self):
        if self.hidden is not None:
            self.hidden = tuple(s.detach() for s in self.hidden)

    def forward(self, clip):
        out, self.hidden = self.convlstm(clip, self.hidden)
        return torch.sigmoid(self.head(out[:, -1]))

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def unfold_numpy(arr, kernel):
    """(B, C, H, W) -> (B, C*k*k, L) patch matrix, valid padding, stride 1."""
    windows = np.lib.stride_tricks.sliding_window_view(arr, (kernel, kernel), axis=(2, 3))
    b, c, h, w, _, _ = windows.shape
    cols = windows.transpose(0, 1, 4, 5, 2, 3).reshape(b, c * kernel * kernel, h * w)
    return np.ascontiguousarray(cols)


def relaxed_gates(a, b):
    """Real-valued relaxations of AND, OR, XOR, NAND on inputs in [0, 1]."""
    return torch.stack([a * b, a + b - a * b, a + b - 2 * a * b, 1 - a * b], dim=-1)


class LogicConv2d(nn.Module):
    """Each output channel applies a learned mixture of 2-input gates to a fixed pair
    of positions inside every receptive field."""

    def __init__(self, in_channels, out_channels, kernel_size=3, export_mode=False, seed=0):
        super().__init__()
        gen = torch.Generator().manual_seed(seed)
        fan_in = in_channels * kernel_size * kernel_size
        self.kernel_size = kernel_size
        self.out_channels = out_channels
        self.export_mode = export_mode
        self.register_buffer("idx_a", torch.randint(0, fan_in, (out_channels,), generator=gen))
        self.register_buffer("idx_b", torch.randint(0, fan_in, (out_channels,), generator=gen))
        self.gate_logits = nn.Parameter(torch.randn(out_channels, 4, generator=gen))

    def forward(self, x):
        b, _, h, w = x.shape
        if self.export_mode:
            cols = torch.from_numpy(unfold_numpy(x.detach().cpu().numpy(), self.kernel_size)).to(x.dtype)
        else:
            cols = F.unfold(x, self.kernel_size)
        a = cols[:, self.idx_a, :]
        c = cols[:, self.idx_b, :]
        gates = relaxed_gates(a, c)                       # (B, out, L, 4)
        mix = torch.softmax(self.gate_logits, dim=-1)     # (out, 4)
        out = (gates * mix[None, :, None, :]).sum(-1)
        k = self.kernel_size
        return out.view(b, self.out_channels, h - k + 1, w - k + 1)

"""Fixed FIR filters for baseline-wander and powerline removal.

The filter taps are designed once at import time. Designing them does not need
autograd, so recording is switched off for that and the caller's grad mode is put
back afterwards.
"""
import math

import torch

SAMPLE_RATE = 250


def _design_bandpass(low_hz=0.5, high_hz=40.0, taps=31):
    n = torch.arange(taps, dtype=torch.float32) - (taps - 1) / 2
    def sinc_lp(fc):
        x = 2 * fc / SAMPLE_RATE * n
        return 2 * fc / SAMPLE_RATE * torch.where(x == 0, torch.ones_like(x), torch.sin(math.pi * x) / (math.pi * x))
    h = sinc_lp(high_hz) - sinc_lp(low_hz)
    window = torch.hamming_window(taps, periodic=False)
    return (h * window).view(1, 1, -1)


_previous_mode = torch.is_grad_enabled()
torch.set_grad_enabled(False)
try:
    BANDPASS_TAPS = _design_bandpass()
finally:
    torch.set_grad_enabled(_previous_mode)


def bandpass(signal):
    """signal: (batch, samples) -> filtered (batch, samples)."""
    pad = BANDPASS_TAPS.shape[-1] // 2
    return torch.nn.functional.conv1d(signal.unsqueeze(1), BANDPASS_TAPS, padding=pad).squeeze(1)

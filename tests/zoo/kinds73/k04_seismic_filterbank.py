"""
expect: GL004 68
dynamic: confirm
source: none, invented

Geophysics / seismic trace denoising. A learnable FIR filter bank (a Conv1d over single-channel
traces followed by a 1x1 mixing conv) removes band-limited noise from synthetic seismograms.
To keep the learned filters smooth, the model's constructor calls `_init_regularisers`, which
computes a roughness penalty (squared first differences of the filter taps) from the conv
weight and stores it on `self.roughness`. The training loop adds that attribute to every
batch's loss and, because autograd refused to go through the stored graph twice, calls
`backward(retain_graph=True)`. The stored penalty was computed once, from the initial taps: its
value never changes and its gradient always pushes on the initial roughness, not the current
one, so the regulariser does not track the weights. The asserts show the second step fails
without retain_graph, that `self.roughness` keeps its initial value after training while the
real roughness of the trained taps differs, and that a fixed loop that recomputes the penalty
from the current weights ends with smoother filters at a similar reconstruction error.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class FIRDenoiser(nn.Module):
    def __init__(self, n_filters=8, taps=31, smooth_weight=0.05):
        super().__init__()
        self.bank = nn.Conv1d(1, n_filters, kernel_size=taps, padding=taps // 2, bias=False)
        self.mix = nn.Conv1d(n_filters, 1, kernel_size=1)
        self.smooth_weight = smooth_weight
        self._init_regularisers()

    def _init_regularisers(self):
        self.roughness = self.tap_roughness()

    def tap_roughness(self):
        w = self.bank.weight[:, 0, :]
        return self.smooth_weight * (w[:, 1:] - w[:, :-1]).pow(2).sum()

    def forward(self, traces):
        return self.mix(self.bank(traces.unsqueeze(1))).squeeze(1)


def synth_traces(n=32, length=256):
    t = torch.arange(length).float()
    onset = torch.randint(40, 200, (n, 1)).float()
    freq = 0.05 + 0.03 * torch.rand(n, 1)
    env = torch.exp(-((t - onset).clamp(min=0)) / 40.0) * (t >= onset).float()
    clean = env * torch.sin(2 * math.pi * freq * (t - onset))
    noisy = clean + 0.4 * torch.randn(n, length)
    return noisy, clean


def train(recompute, steps=120, seed=0, retain=True):
    torch.manual_seed(seed)
    model = FIRDenoiser()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for _ in range(steps):
        noisy, clean = synth_traces()
        rec = F.mse_loss(model(noisy), clean)
        if recompute:
            loss = rec + model.tap_roughness()
            loss.backward()
        else:
            loss = rec + model.roughness
            if retain:
                loss.backward(retain_graph=True)
            else:
                loss.backward()
        opt.step()
        opt.zero_grad()
    return model, rec.item()


def main():
    torch.set_num_threads(1)

    # without retain_graph the stored penalty breaks on the second batch
    try:
        train(recompute=False, steps=2, retain=False)
        raise AssertionError("second backward through stored penalty should fail")
    except RuntimeError as exc:
        assert "second time" in str(exc), exc

    torch.manual_seed(0)
    init_value = FIRDenoiser().roughness.item()
    stale, rec_stale = train(recompute=False)
    assert abs(stale.roughness.item() - init_value) < 1e-12, "stored penalty never updates"
    now = stale.tap_roughness().item()
    assert abs(now - init_value) > 0.05 * init_value, (now, init_value)

    fresh, rec_fresh = train(recompute=True)
    print(f"stored={stale.roughness.item():.4f} actual(stale)={now:.4f} "
          f"actual(fixed)={fresh.tap_roughness().item():.4f} rec {rec_stale:.4f}/{rec_fresh:.4f}")
    assert fresh.tap_roughness().item() < now
    assert rec_fresh < 1.5 * rec_stale
    print("k04 OK: penalty built in __init__ is stale and needs retain_graph")


if __name__ == "__main__":
    main()

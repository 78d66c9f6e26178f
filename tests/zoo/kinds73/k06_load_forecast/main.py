"""
expect: GL001 forecaster.py:20
dynamic: confirm
source: none, invented

Energy / day-ahead load forecasting. A Lightning-style module (forecaster.py, subclassing the
LightningModule stand-in in lightning_stub.py) encodes a week of hourly load, temperature and
hour-of-day with a GRU and predicts the next 24 hours with a linear head. Its `forward` is
decorated `@torch.no_grad()` (copied from an inference wrapper), and `training_step` calls
`self(history)` and trains the head on the result. The encoder therefore never receives a
gradient even though `configure_optimizers` gives it its own parameter group: only the linear
head on top of a random GRU is fitted. The asserts show the encoder's gradients stay None and
its weights are bit-for-bit unchanged after training, while the fixed module (same class
without the decorator) updates the encoder and reaches a clearly lower validation error.
"""
import math

import torch

from forecaster import LoadForecaster, LoadForecasterFixed
from lightning_stub import Trainer


def synth_load(n_series, days=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    hours = torch.arange(days * 24).float()
    phase = torch.rand(n_series, 1, generator=g) * 2 * math.pi
    level = 1 + torch.rand(n_series, 1, generator=g)
    temp = torch.sin(2 * math.pi * hours / (24 * 7) + phase) + 0.1 * torch.randn(n_series, hours.numel(), generator=g)
    daily = torch.sin(2 * math.pi * hours / 24 - 1.0)
    load = level * (1 + 0.5 * daily) + 0.6 * temp.clamp(min=0) + 0.05 * torch.randn(n_series, hours.numel(), generator=g)
    hod = (hours % 24 / 24).expand(n_series, -1)
    feats = torch.stack([load, temp, hod], dim=-1)
    history, target = feats[:, :-24], load[:, -24:]
    return history, target


def loader(history, target, bs=32):
    return [(history[i:i + bs], target[i:i + bs]) for i in range(0, len(history), bs)]


def run(cls, epochs=10):
    torch.manual_seed(0)
    model = cls()
    enc_before = [p.detach().clone() for p in model.encoder.parameters()]
    tr = loader(*synth_load(256, seed=1))
    va = loader(*synth_load(128, seed=2), bs=128)
    Trainer(max_epochs=epochs).fit(model, tr, va)
    enc_changed = any(not torch.equal(a, b) for a, b in zip(enc_before, model.encoder.parameters()))
    return model, enc_changed, model.logged["val_mse"]


def main():
    torch.set_num_threads(1)
    buggy, buggy_changed, buggy_val = run(LoadForecaster)
    assert all(p.grad is None for p in buggy.encoder.parameters()), "encoder got no gradient"
    assert buggy.head.weight.grad is not None
    assert not buggy_changed, "encoder weights frozen by @torch.no_grad() forward"

    fixed, fixed_changed, fixed_val = run(LoadForecasterFixed)
    assert all(p.grad is not None for p in fixed.encoder.parameters())
    assert fixed_changed
    print(f"val mse: no_grad forward {buggy_val:.4f}, fixed {fixed_val:.4f}")
    assert fixed_val < 0.7 * buggy_val
    print("k06 OK: @torch.no_grad() forward starves the encoder in training_step")


if __name__ == "__main__":
    main()

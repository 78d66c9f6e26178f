"""
expect: GL005 42
dynamic: confirm
source: kind A

A speech front-end wraps its gating function in a project-local ``@timed``
decorator.  Unlike a no_grad/inference decorator, ``timed`` only measures and
logs wall-clock time, so autograd stays on.  The gate computes
``torch.sigmoid`` (which saves its output) and then shifts that output in place
with ``+=``; backward then fails with "modified by an inplace operation".
"""
import functools
import time

import torch
import torch.nn as nn

TIMINGS = {}


def timed(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        out = fn(*args, **kwargs)
        TIMINGS.setdefault(fn.__name__, []).append(time.perf_counter() - t0)
        return out
    return wrapper


class FrameEncoder(nn.Module):
    def __init__(self, n_mels=40, hidden=24):
        super().__init__()
        self.proj = nn.Linear(n_mels, hidden)
        self.out = nn.Linear(hidden, 10)


@timed
def gated_frames(encoder, mel):
    x = encoder.proj(mel)
    y = torch.sigmoid(x)
    y += 1
    return x * y


def main():
    torch.manual_seed(2)
    enc = FrameEncoder()
    mel = torch.randn(4, 50, 40)
    targets = torch.randint(0, 10, (4, 50))
    h = gated_frames(enc, mel)
    logits = enc.out(h)
    loss = nn.functional.cross_entropy(logits.reshape(-1, 10), targets.reshape(-1))
    assert "gated_frames" in TIMINGS
    try:
        loss.backward()
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e), e
        print("caught expected error")
    else:
        raise AssertionError("backward should have failed")


if __name__ == "__main__":
    main()

"""
expect: GL001 main.py:49
dynamic: confirm
source: none, invented

Audio tagging on synthetic clips (a sine tone whose pitch encodes the class, plus noise).  The
`WaveEncoder` in encoder.py has a `forward` and an `embed` method that returns unit-norm embeddings;
`embed` is decorated with `@torch.no_grad()` because it was written for building a retrieval index.
The training loop reuses `encoder.embed(wave)` to get normalized features for the tag classifier,
so the whole encoder runs without recording a graph: only the classifier learns and the encoder
parameters never get a `.grad`.  The asserts show the encoder grads stay None and its weights are
unchanged after training, while the variant that calls `F.normalize(encoder(wave))` trains the
encoder and reaches a better accuracy.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from encoder import WaveEncoder

torch.manual_seed(0)
torch.set_num_threads(1)

N_TAGS, LEN = 4, 256


def clips(n):
    tag = torch.randint(0, N_TAGS, (n,))
    t = torch.arange(LEN).float()
    freq = 0.02 + 0.03 * tag.float()
    phase = 2 * math.pi * torch.rand(n, 1)
    wave = torch.sin(2 * math.pi * freq[:, None] * t + phase) + 0.5 * torch.randn(n, LEN)
    return wave, tag


def fit(through_forward, steps=120):
    torch.manual_seed(0)
    encoder = WaveEncoder()
    tagger = nn.Linear(32, N_TAGS)
    start = {k: v.clone() for k, v in encoder.state_dict().items()}
    opt = torch.optim.Adam(list(encoder.parameters()) + list(tagger.parameters()), lr=3e-3)
    for step in range(steps):
        wave, tag = clips(64)
        if through_forward:
            feats = F.normalize(encoder(wave), dim=-1)
        else:
            feats = encoder.embed(wave)
        loss = F.cross_entropy(tagger(feats) * 10.0, tag)
        opt.zero_grad()
        loss.backward()
        opt.step()
    moved = any(not torch.equal(start[k], v) for k, v in encoder.state_dict().items())
    grads = [p.grad for p in encoder.parameters()]
    with torch.no_grad():
        wave, tag = clips(500)
        acc = (tagger(encoder.embed(wave)).argmax(-1) == tag).float().mean().item()
    return moved, grads, acc


if __name__ == "__main__":
    moved, grads, acc_embed = fit(through_forward=False)
    assert not moved
    assert all(g is None for g in grads)
    moved, grads, acc_fwd = fit(through_forward=True)
    assert moved and all(g is not None and g.abs().sum() > 0 for g in grads)
    assert acc_fwd > 0.9 and acc_fwd > acc_embed, (acc_fwd, acc_embed)
    print(f"k07: encoder frozen by no_grad embed ({acc_embed:.2f}) vs trained ({acc_fwd:.2f})")

"""
expect: GL001 penalties.py:5
dynamic: confirm
source: none, invented

A tabular classifier with an auxiliary decoder: the loss is cross-entropy plus a reconstruction penalty that
is meant to train the decoder (and regularise the encoder). The penalty helper in penalties.py is decorated
with `@torch.no_grad()`, so its result carries no graph and the decoder, which reaches the loss only through
that penalty, never gets a gradient. The writer saw a warning once and added `total.requires_grad_()` before
backward "to be safe"; since the total already has history through the cross-entropy term, that call does
nothing. The asserts show the decoder's grads stay None and its weights unchanged, while the variant without
the decorator trains it.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from penalties import reconstruction_penalty, reconstruction_penalty_fixed


class Encoder(nn.Module):
    def __init__(self, n_in=12, n_hidden=6, n_classes=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, 24), nn.Tanh(), nn.Linear(24, n_hidden))
        self.cls = nn.Linear(n_hidden, n_classes)

    def forward(self, x):
        h = self.body(x)
        return h, self.cls(h)


def run(penalty_fn, epochs=3):
    torch.manual_seed(0)
    enc = Encoder()
    decoder = nn.Sequential(nn.Linear(6, 24), nn.Tanh(), nn.Linear(24, 12))
    params = list(enc.parameters()) + list(decoder.parameters())
    opt = torch.optim.Adam(params, lr=1e-2)
    dec_before = copy.deepcopy(decoder.state_dict())
    x = torch.randn(40, 12)
    y = torch.randint(0, 3, (40,))
    for _ in range(epochs):
        for xb, yb in zip(x.split(10), y.split(10)):
            opt.zero_grad()
            feats, logits = enc(xb)
            total = F.cross_entropy(logits, yb) + 0.1 * penalty_fn(decoder, feats, xb)
            total.requires_grad_()
            total.backward()
            dec_grads = [p.grad for p in decoder.parameters()]
            opt.step()
    changed = any(not torch.equal(dec_before[k], v) for k, v in decoder.state_dict().items())
    return dec_grads, changed


if __name__ == "__main__":
    torch.set_num_threads(1)
    grads, changed = run(reconstruction_penalty)
    assert all(g is None for g in grads)
    assert not changed
    grads, changed = run(reconstruction_penalty_fixed)
    assert all(g is not None and g.abs().sum() > 0 for g in grads)
    assert changed
    print("ok: decoder starved by the no_grad penalty; trains without the decorator")

"""
expect: GL001 encoders.py:18
dynamic: confirm
source: none, invented

A named-entity tagger. encoders.py defines a BiLSTM ContextEncoder whose forward runs the `bridge` projection
inside `with torch.no_grad():`; the projection's input is the LSTM's output and its result feeds the `mix`
layer and, through the Tagger built here, the emission classifier. The Tagger owns the encoder as a
submodule, and its Adam optimizer covers all of it. Because the bridge output is produced with grad mode off,
the loss's graph starts at `projected`: the embedding table, the LSTM and the bridge get no gradient at all,
so only `mix` and the emission layer learn. The asserts show `.grad is None` and unchanged weights for
embed/lstm/bridge after training, and that a variant with the projection outside the no_grad block trains them.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

import encoders

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, TAGS, SEQ = 200, 5, 12


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = encoders.ContextEncoder(VOCAB)
        self.emissions = nn.Linear(96, TAGS)

    def forward(self, tokens):
        return self.emissions(self.encoder(tokens))


class OpenEncoder(encoders.ContextEncoder):
    def forward(self, tokens):
        states, _ = self.lstm(self.embed(tokens))
        return self.mix(self.bridge(states))


def toy_corpus(n=128):
    tokens = torch.randint(1, VOCAB, (n, SEQ))
    tags = (tokens % TAGS)
    return tokens, tags


def fit(tagger, epochs=5):
    tokens, tags = toy_corpus()
    optimizer = torch.optim.Adam(tagger.parameters(), lr=3e-3)
    snapshot = {k: v.clone() for k, v in tagger.state_dict().items()}
    for _ in range(epochs):
        for i in range(0, len(tokens), 32):
            logits = tagger(tokens[i:i + 32])
            loss = F.cross_entropy(logits.reshape(-1, TAGS), tags[i:i + 32].reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    moved = {k: not torch.equal(snapshot[k], v) for k, v in tagger.state_dict().items()}
    return moved


tagger = Tagger()
moved = fit(tagger)
enc = tagger.encoder
assert enc.embed.weight.grad is None and enc.bridge.weight.grad is None
assert all(p.grad is None for p in enc.lstm.parameters())
assert not moved["encoder.embed.weight"] and not moved["encoder.lstm.weight_ih_l0"]
assert not moved["encoder.bridge.weight"]
assert moved["encoder.mix.2.weight"] and moved["emissions.weight"]

torch.manual_seed(0)
fixed = Tagger()
fixed.encoder = OpenEncoder(VOCAB)
moved = fit(fixed)
assert all(moved.values()), [k for k, v in moved.items() if not v]
print("ok: encoder layers before the bridge stay frozen by the no_grad block; the open variant trains them")

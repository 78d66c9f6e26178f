"""
expect: none
dynamic: dismiss
source: kind B

A tiny turn-by-turn dialog state tracker: the state list is built by
concatenation ([start] + [None] * turns) and each turn's slot is filled with a
tanh-RNN cell output; the states are stacked and scored against intent labels.
Filling list slots is plain Python rebinding, not an in-place tensor write.
Asserts: backward succeeds and the cell's and classifier's weights change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(4)

turns, batch, dim, n_intents = 5, 4, 10, 3
utter_emb = nn.Embedding(50, dim)
tracker = nn.RNNCell(dim, dim, nonlinearity="tanh")
classify = nn.Linear(dim, n_intents)
params = list(utter_emb.parameters()) + list(tracker.parameters()) + list(classify.parameters())
opt = torch.optim.Adam(params, lr=1e-2)

tokens = torch.randint(0, 50, (turns, batch))
intents = torch.randint(0, n_intents, (turns, batch))

start = torch.zeros(batch, dim)
snap = [p.detach().clone() for p in params]
for step in range(3):
    opt.zero_grad()
    states = [start] + [None] * turns
    for k in range(1, turns + 1):
        states[k] = tracker(utter_emb(tokens[k - 1]), states[k - 1])
    logits = classify(torch.stack(states[1:]))
    loss = F.cross_entropy(logits.reshape(-1, n_intents), intents.reshape(-1))
    loss.backward()
    assert tracker.weight_ih.grad.abs().sum() > 0
    opt.step()

assert all(not torch.equal(a, p) for a, p in zip(snap, params))
print("ok: concatenated list filled slot by slot trains normally")

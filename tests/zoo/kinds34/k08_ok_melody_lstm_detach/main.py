"""
expect: none
dynamic: dismiss
source: kinds check 34, kind 4

A melody LSTM carries its (h, c) state on itself across chunks of a long tune
(truncated BPTT). train_epoch in melody.py detaches the state at the start of
each chunk, so every backward covers one chunk only and needs no retain_graph;
the optimizer can step after every chunk.
"""
import torch

from melody import MelodyLSTM, train_epoch

torch.manual_seed(0)

tune = torch.randint(0, 24, (241, 2))
n_chunks, w = 8, 30
batches = [(tune[i * w:(i + 1) * w], tune[i * w + 1:(i + 1) * w + 1]) for i in range(n_chunks)]

model = MelodyLSTM()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

visits = []


def watch_chunk(module, inputs, output):
    k = len(visits)
    visits.append(0)
    output.register_hook(lambda g, k=k: visits.__setitem__(k, visits[k] + 1))


model.embed.register_forward_hook(watch_chunk)
first = train_epoch(model, optimizer, batches)
second = train_epoch(model, optimizer, batches)

print("backward passes through each chunk's embedded input:", visits)
# each chunk's graph is traversed by its own backward only, never by later chunks
assert visits == [1] * (2 * n_chunks)
assert second < first

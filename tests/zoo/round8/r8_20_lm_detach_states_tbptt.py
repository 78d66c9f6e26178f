"""
expect: none
dynamic: dismiss
source: https://github.com/yunjey/pytorch-tutorial/issues/90

Word-level LSTM language model trained with truncated backpropagation through
time, as in pytorch-tutorial's language model: the LSTM state (h, c) is
carried from one chunk of the corpus to the next, but at the start of each
step it is cut with `states = detach(states)`. The hidden state keeps its
values across batches (the corpus is one long sequence) while each backward
only covers the current chunk, so no graph is carried across iterations.
Asserted: training over several epochs runs without "backward through the
graph a second time", the previous chunk's state (with its graph) is freed once
it is detached, and the loss decreases.
"""
import gc
import weakref

import torch
import torch.nn as nn

torch.manual_seed(0)
vocab_size, embed_size, hidden_size, seq_length, batch_size = 30, 8, 16, 5, 4


class RNNLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embed_size)
        self.lstm = nn.LSTM(embed_size, hidden_size, 1, batch_first=True)
        self.linear = nn.Linear(hidden_size, vocab_size)

    def forward(self, x, h):
        out, (h, c) = self.lstm(self.embed(x), h)
        return self.linear(out.reshape(-1, hidden_size)), (h, c)


def detach(states):
    return [state.detach() for state in states]


ids = torch.randint(0, vocab_size, (batch_size, 61))
model = RNNLM()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
epoch_losses, carried_graph = [], []
for epoch in range(8):
    states = (torch.zeros(1, batch_size, hidden_size), torch.zeros(1, batch_size, hidden_size))
    total = 0.0
    for i in range(0, ids.size(1) - seq_length, seq_length):
        inputs, targets = ids[:, i:i + seq_length], ids[:, i + 1:i + 1 + seq_length]
        previous_h = weakref.ref(states[0])
        states = detach(states)
        gc.collect()
        carried_graph.append(previous_h() is not None)
        outputs, states = model(inputs, states)
        loss = criterion(outputs, targets.reshape(-1))
        model.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        total += loss.item()
    epoch_losses.append(total)

assert not any(carried_graph), "the previous chunk's graph outlived its step"
assert epoch_losses[-1] < 0.8 * epoch_losses[0], epoch_losses
print("OK: TBPTT with detached states trains (%.2f -> %.2f)" % (epoch_losses[0], epoch_losses[-1]))

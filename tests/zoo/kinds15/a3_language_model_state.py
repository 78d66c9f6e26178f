"""
expect: none
dynamic: dismiss
source: kind A

A truncated-BPTT trainer for a small character language model carries its LSTM state between
chunks and has a `full_bptt` option whose default, False, detaches the carried state at the start
of every chunk; the script builds the trainer only with that default. Each chunk backpropagates its
prediction loss with retain_graph=True and then a state-norm penalty through the same graph. A hook on
each chunk's embeddings shows every prediction backward reaches only its own chunk, and the asserts
show the weights change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2)


class ChunkedLMTrainer:
    def __init__(self, vocab=12, emb=6, hidden=10, full_bptt=False):
        self.embed = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)
        self.full_bptt = full_bptt
        self.state = None
        self.hits = []
        self.reach_counts = []
        params = [*self.embed.parameters(), *self.lstm.parameters(), *self.out.parameters()]
        self.opt = torch.optim.Adam(params, lr=1e-2)

    def train_chunk(self, chunk):
        if self.state is not None and not self.full_bptt:
            self.state = tuple(s.detach() for s in self.state)
        inputs, targets = chunk[:, :-1], chunk[:, 1:]
        emb = self.embed(inputs)
        emb.register_hook(lambda g: self.hits.append(1))
        outputs, self.state = self.lstm(emb, self.state)
        logits = self.out(outputs)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))
        penalty = 1e-3 * self.state[0].pow(2).sum()
        self.opt.zero_grad()
        before = len(self.hits)
        loss.backward(retain_graph=True)
        self.reach_counts.append(len(self.hits) - before)
        penalty.backward()
        self.opt.step()
        return loss.item()


stream = torch.randint(0, 12, (3, 41))
trainer = ChunkedLMTrainer()
w0 = trainer.lstm.weight_hh_l0.detach().clone()
for start in range(0, 40, 8):
    trainer.train_chunk(stream[:, start:start + 9])
print("chunks reached per backward:", trainer.reach_counts)
assert trainer.reach_counts == [1] * 5
assert not torch.equal(w0, trainer.lstm.weight_hh_l0.detach())
print("ok")

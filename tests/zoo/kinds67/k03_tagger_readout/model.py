import torch
import torch.nn as nn


class SequenceTagger(nn.Module):
    """BiGRU tagger with a small MLP readout on top of the contextual states."""

    def __init__(self, vocab=200, emb=24, hidden=32, n_tags=7):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.norm = nn.LayerNorm(2 * hidden)
        self.mlp = nn.Linear(2 * hidden, hidden)
        self.out = nn.Linear(hidden, n_tags)

    def readout(self, h):
        h = self.norm(h.data)
        return self.out(torch.relu(self.mlp(h)))

    def forward(self, tokens):
        states, _ = self.rnn(self.embed(tokens))
        return self.readout(states)


class SequenceTaggerV2(SequenceTagger):
    def readout(self, h):
        h = self.norm(h)
        return self.out(torch.relu(self.mlp(h)))

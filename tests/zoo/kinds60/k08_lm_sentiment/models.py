import torch
import torch.nn as nn

VOCAB = 40
PAD = 0


class TinyGRULM(nn.Module):
    def __init__(self, vocab=VOCAB, emb=32, hidden=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.lm_head = nn.Linear(hidden, vocab)

    def forward(self, tokens):
        out, _ = self.rnn(self.embed(tokens))
        return self.lm_head(out)

    def encode(self, tokens):
        out, _ = self.rnn(self.embed(tokens))
        return out.mean(dim=1)


class SentimentHead(nn.Module):
    def __init__(self, hidden=64, n_labels=2):
        super().__init__()
        self.mlp = nn.Sequential(nn.Dropout(0.1), nn.Linear(hidden, 64), nn.Tanh(), nn.Linear(64, n_labels))

    def forward(self, feats):
        return self.mlp(feats)

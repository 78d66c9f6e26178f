import torch
import torch.nn as nn


class ContextEncoder(nn.Module):
    """Word + char-free BiLSTM encoder used by the tagging and chunking heads."""

    def __init__(self, vocab_size, emb_dim=64, hidden=64, out_dim=96):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.lstm = nn.LSTM(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * hidden, out_dim)
        self.mix = nn.Sequential(nn.Tanh(), nn.Dropout(0.1), nn.Linear(out_dim, out_dim))

    def forward(self, tokens):
        emb = self.embed(tokens)
        states, _ = self.lstm(emb)
        with torch.no_grad():
            projected = self.bridge(states)
        return self.mix(projected)

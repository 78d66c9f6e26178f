"""Aspect-level sentiment model: BiLSTM encoder followed by syntax and aspect-relation graph convolutions."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphConv(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim, dim) * 0.1)
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, h, adj):
        support = h @ self.weight
        degree = adj.sum(dim=2, keepdim=True) + 1
        return adj @ support / degree + self.bias


def distance_weights(seq_len, aspect_start, aspect_end):
    """Down-weight tokens far from the aspect span and zero the aspect itself."""
    pos = torch.arange(seq_len).unsqueeze(0).float()
    start = aspect_start.unsqueeze(1).float()
    end = aspect_end.unsqueeze(1).float()
    before = 1 - (start - pos) / seq_len
    after = 1 - (pos - end) / seq_len
    w = torch.where(pos < start, before, torch.where(pos > end, after, torch.zeros_like(pos)))
    return w.unsqueeze(2)


class InterGCN(nn.Module):
    def __init__(self, vocab=50, emb=16, hidden=8, n_classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        d = 2 * hidden
        self.gc1, self.gc2 = GraphConv(d), GraphConv(d)
        self.gc3, self.gc4 = GraphConv(d), GraphConv(d)
        self.fc = nn.Linear(d, n_classes)

    def combine(self, x, x_d):
        x += 0.2 * x_d
        return x

    def forward(self, tokens, adj, inter_adj, aspect_start, aspect_end):
        text_out, _ = self.lstm(self.embed(tokens))
        pw = distance_weights(tokens.size(1), aspect_start, aspect_end)
        x = F.relu(self.gc1(pw * text_out, adj))
        x = F.relu(self.gc2(pw * x, adj))
        x_d = F.relu(self.gc3(pw * x, inter_adj))
        x_d = F.relu(self.gc4(pw * x_d, inter_adj))
        x = self.combine(x, x_d)
        pos = torch.arange(tokens.size(1)).unsqueeze(0)
        in_aspect = ((pos >= aspect_start.unsqueeze(1)) & (pos <= aspect_end.unsqueeze(1))).float().unsqueeze(2)
        x = in_aspect * x
        scores = (x @ text_out.transpose(1, 2)).sum(1, keepdim=True)
        alpha = F.softmax(scores, dim=2)
        pooled = (alpha @ text_out).squeeze(1)
        return self.fc(pooled)

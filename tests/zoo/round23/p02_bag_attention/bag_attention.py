"""Bag-level relation extraction with selective attention over the sentences of a bag."""
import torch
import torch.nn as nn


class SentenceEncoder(nn.Module):
    def __init__(self, vocab=60, hidden=12):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, hidden, mode="mean")
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, token):
        return torch.tanh(self.proj(self.embed(token)))


class BagAttention(nn.Module):
    def __init__(self, sentence_encoder, num_class, hidden=12):
        super().__init__()
        self.sentence_encoder = sentence_encoder
        self.fc = nn.Linear(hidden, num_class)
        self.softmax = nn.Softmax(-1)

    def attention_query(self, label):
        # the relation's row of the classifier acts as the attention query
        return self.fc.weight.data[label]

    def forward(self, label, scope, token):
        rep = self.sentence_encoder(token)                       # (n_sent, H)
        query = self.attention_query(label)                      # (B, H)
        bag_rep = []
        for i, (start, end) in enumerate(scope):
            bag = rep[start:end]                                 # (n_i, H)
            att_score = (bag * query[i].unsqueeze(0)).sum(-1)    # (n_i,)
            weight = self.softmax(att_score)
            bag_rep.append((weight.unsqueeze(-1) * bag).sum(0))
        bag_rep = torch.stack(bag_rep, 0)
        return self.fc(bag_rep)

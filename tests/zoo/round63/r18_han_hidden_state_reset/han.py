"""Hierarchical attention network (word GRU + attention, sentence GRU + attention)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.context = nn.Linear(dim, 1, bias=False)

    def forward(self, h):                     # h: [T, B, D]
        u = torch.tanh(self.proj(h))
        a = F.softmax(self.context(u), dim=0)
        return (a * h).sum(dim=0)             # [B, D]


class WordAttNet(nn.Module):
    def __init__(self, vocab, emb=16, hidden=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.gru = nn.GRU(emb, hidden, bidirectional=True)
        self.att = Attention(2 * hidden)

    def forward(self, words, hidden_state):   # words: [W, B]
        out, h = self.gru(self.emb(words), hidden_state)
        return self.att(out).unsqueeze(0), h


class SentAttNet(nn.Module):
    def __init__(self, sent_hidden=8, word_hidden=8, num_classes=3):
        super().__init__()
        self.gru = nn.GRU(2 * word_hidden, sent_hidden, bidirectional=True)
        self.att = Attention(2 * sent_hidden)
        self.fc = nn.Linear(2 * sent_hidden, num_classes)

    def forward(self, sents, hidden_state):   # sents: [S, B, 2*word_hidden]
        out, h = self.gru(sents, hidden_state)
        return self.fc(self.att(out)), h


class HierAttNet(nn.Module):
    def __init__(self, vocab, word_hidden, sent_hidden, batch_size, num_classes):
        super().__init__()
        self.batch_size = batch_size
        self.word_hidden_size = word_hidden
        self.sent_hidden_size = sent_hidden
        self.word_att_net = WordAttNet(vocab, hidden=word_hidden)
        self.sent_att_net = SentAttNet(sent_hidden, word_hidden, num_classes)
        self._init_hidden_state()

    def _init_hidden_state(self, last_batch_size=None):
        batch_size = last_batch_size or self.batch_size
        self.word_hidden_state = torch.zeros(2, batch_size, self.word_hidden_size)
        self.sent_hidden_state = torch.zeros(2, batch_size, self.sent_hidden_size)

    def forward(self, docs):                  # docs: [B, S, W]
        output_list = []
        for sent in docs.permute(1, 0, 2):    # one sentence position at a time
            output, self.word_hidden_state = self.word_att_net(sent.permute(1, 0), self.word_hidden_state)
            output_list.append(output)
        output = torch.cat(output_list, 0)
        output, self.sent_hidden_state = self.sent_att_net(output, self.sent_hidden_state)
        return output

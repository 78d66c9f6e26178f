"""Encoder / attention / decoder for a small sequence-to-sequence translator."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    """Scaled dot-product attention over the encoder states.

    The attention scores are kept on the module for plotting the alignment
    (self.alphas); the copy is detached so that inspecting or modifying it later
    can never touch the training graph. The context vector itself is built from
    the live scores.
    """

    def __init__(self, hidden_dim, input_dim=None):
        super().__init__()
        input_dim = input_dim or hidden_dim
        self.hidden_dim = hidden_dim
        self.linear_query = nn.Linear(input_dim, hidden_dim)
        self.linear_key = nn.Linear(input_dim, hidden_dim)
        self.linear_value = nn.Linear(input_dim, hidden_dim)
        self.alphas = None
        self.keys = None
        self.values = None

    def init_keys(self, encoder_states):
        self.keys = self.linear_key(encoder_states)
        self.values = self.linear_value(encoder_states)

    def score_function(self, query):
        proj_query = self.linear_query(query)
        dot = torch.bmm(proj_query, self.keys.permute(0, 2, 1))
        return dot / (self.hidden_dim ** 0.5)

    def forward(self, query):
        scores = self.score_function(query)
        alphas = F.softmax(scores, dim=-1)
        self.alphas = alphas.detach()          # kept for visualising the alignment
        context = torch.bmm(alphas, self.values)
        return context


class Encoder(nn.Module):
    def __init__(self, vocab, hidden_dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden_dim)
        self.rnn = nn.GRU(hidden_dim, hidden_dim, batch_first=True)

    def forward(self, src):
        states, hidden = self.rnn(self.embed(src))
        return states, hidden


class DecoderAttn(nn.Module):
    def __init__(self, vocab, hidden_dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden_dim)
        self.rnn = nn.GRU(hidden_dim, hidden_dim, batch_first=True)
        self.attn = Attention(hidden_dim)
        self.regression = nn.Linear(2 * hidden_dim, vocab)
        self.hidden = None

    def init_hidden(self, encoder_states, hidden):
        self.hidden = hidden
        self.attn.init_keys(encoder_states)

    def forward(self, token):
        out, self.hidden = self.rnn(self.embed(token), self.hidden)
        context = self.attn(out)
        return self.regression(torch.cat([context, out], dim=-1))


class EncoderDecoderAttn(nn.Module):
    def __init__(self, vocab, hidden_dim, target_len, bos):
        super().__init__()
        self.encoder = Encoder(vocab, hidden_dim)
        self.decoder = DecoderAttn(vocab, hidden_dim)
        self.target_len = target_len
        self.bos = bos
        self.alignments = []

    def forward(self, src, tgt):
        states, hidden = self.encoder(src)
        self.decoder.init_hidden(states, hidden)
        token = torch.full((src.shape[0], 1), self.bos, dtype=torch.long)
        logits = []
        self.alignments = []
        for t in range(self.target_len):
            step_logits = self.decoder(token)
            logits.append(step_logits)
            self.alignments.append(self.decoder.attn.alphas)
            token = tgt[:, t:t + 1]            # teacher forcing
        return torch.cat(logits, dim=1)

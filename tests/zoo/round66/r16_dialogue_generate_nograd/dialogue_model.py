"""Tiny GRU response generator with a HF-style `generate()` (decorated with no_grad)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BOS = 1


class ResponseGenerator(nn.Module):
    def __init__(self, vocab, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.ctx_rnn = nn.GRU(d, d, batch_first=True)
        self.dec_rnn = nn.GRU(d, d, batch_first=True)
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, context, response_in):
        _, h = self.ctx_rnn(self.emb(context))
        out, _ = self.dec_rnn(self.emb(response_in), h)
        return self.lm_head(out)

    def mle_loss(self, context, response):
        r_in = torch.cat([torch.full_like(response[:, :1], BOS), response[:, :-1]], 1)
        logits = self(context, r_in)
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), response.reshape(-1))

    def sequence_logprob(self, context, response):
        """Teacher-forced log-probability of a given response (differentiable)."""
        r_in = torch.cat([torch.full_like(response[:, :1], BOS), response[:, :-1]], 1)
        logp = F.log_softmax(self(context, r_in), -1)
        return logp.gather(-1, response.unsqueeze(-1)).squeeze(-1).sum(1)

    @torch.no_grad()
    def generate(self, context, max_new_tokens=6, do_sample=True):
        _, h = self.ctx_rnn(self.emb(context))
        tok = torch.full((context.size(0), 1), BOS, dtype=torch.long)
        tokens, scores = [], []
        for _ in range(max_new_tokens):
            out, h = self.dec_rnn(self.emb(tok), h)
            logp = F.log_softmax(self.lm_head(out[:, -1]), -1)
            tok = torch.multinomial(logp.exp(), 1) if do_sample else logp.argmax(-1, keepdim=True)
            tokens.append(tok)
            scores.append(logp.gather(-1, tok))
        return torch.cat(tokens, 1), torch.cat(scores, 1).sum(1)

"""
expect: none
dynamic: dismiss
source: kinds check 28, kind 4

A tiny SMILES-token generator. Its forward and generate are both @torch.no_grad()
and hand each step to a private helper that reads the log-probabilities with gather
and topk and then bans the padding token by editing them in place. No graph is
ever recorded, so the in-place edit is harmless.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SmilesSampler(nn.Module):
    def __init__(self, vocab=20, d=24, pad_id=0, k=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.cell = nn.GRUCell(d, d)
        self.head = nn.Linear(d, vocab)
        self.pad_id, self.k = pad_id, k

    def _score_step(self, h, tok):
        h = self.cell(self.emb(tok), h)
        logp = F.log_softmax(self.head(h), dim=-1)
        top_lp, top_ix = logp.topk(self.k, dim=-1)
        chosen_lp = logp.gather(-1, top_ix[:, :1]).squeeze(-1)
        logp[:, self.pad_id] = float("-inf")
        return h, logp, chosen_lp, top_lp

    @torch.no_grad()
    def forward(self, tok, h):
        h, logp, chosen_lp, _ = self._score_step(h, tok)
        return logp, chosen_lp

    @torch.no_grad()
    def generate(self, batch=4, steps=8, start_id=1):
        tok = torch.full((batch,), start_id, dtype=torch.long)
        h = torch.zeros(batch, self.cell.hidden_size)
        out, score = [], torch.zeros(batch)
        for _ in range(steps):
            h, logp, chosen_lp, _ = self._score_step(h, tok)
            tok = logp.argmax(-1)
            score += chosen_lp
            out.append(tok)
        return torch.stack(out, 1), score


gen = SmilesSampler()
seqs, score = gen.generate()
logp, chosen = gen(torch.randint(1, 20, (4,)), torch.zeros(4, 24))

assert seqs.shape == (4, 8)
assert (seqs != gen.pad_id).all(), "padding token must never be sampled"
assert not score.requires_grad and not logp.requires_grad
assert torch.isinf(logp[:, gen.pad_id]).all()
print("ok: no-grad generator with in-place ban runs fine")

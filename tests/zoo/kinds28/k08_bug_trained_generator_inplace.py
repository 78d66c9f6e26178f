"""
expect: GL005 32
dynamic: confirm
source: kinds check 28, kind 4

The same SMILES-token generator, but forward is no longer under no_grad: it is
trained with teacher forcing. The private step helper still bans the padding token
in place after gather/topk read the log-probabilities, which overwrites the
log_softmax output saved for backward, so loss.backward() fails.
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

    def _score_step(self, h, tok, tgt=None):
        h = self.cell(self.emb(tok), h)
        logp = F.log_softmax(self.head(h), dim=-1)
        top_lp, top_ix = logp.topk(self.k, dim=-1)
        ix = top_ix[:, :1] if tgt is None else tgt[:, None]
        chosen_lp = logp.gather(-1, ix).squeeze(-1)
        logp[:, self.pad_id] = float("-inf")
        return h, logp, chosen_lp, top_lp

    def forward(self, seq):
        h = torch.zeros(seq.shape[0], self.cell.hidden_size)
        total = 0.0
        for t in range(seq.shape[1] - 1):
            h, _, chosen_lp, _ = self._score_step(h, seq[:, t], seq[:, t + 1])
            total = total + chosen_lp
        return total


gen = SmilesSampler()
opt = torch.optim.Adam(gen.parameters(), lr=1e-3)
seq = torch.randint(1, 20, (6, 9))
nll = -gen(seq).mean()
opt.zero_grad()
try:
    nll.backward()
except RuntimeError as err:
    msg = str(err)
else:
    msg = ""
assert "modified by an inplace operation" in msg, msg
print("ok: backward fails because the log-probs were edited in place")

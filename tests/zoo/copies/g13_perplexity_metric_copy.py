"""expect: none
dynamic: dismiss
source: https://github.com/nod-ai/shark-ai/blob/02687d4a15cdcfeb7214e21df2ecd4a7600e818d/sharktank/sharktank/evaluate/perplexity_torch.py

A tiny language model is trained on masked per-token cross entropy. The per-sequence sums of the
token losses drive the training loss directly. Separately, for reporting, the per-sequence sums
are copied with torch.tensor(x.tolist()) (the same idiom the linked perplexity evaluator uses)
and turned into perplexities. That copy has no history, which is intended: the perplexity is
only a metric, and the model is trained by the attached loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=20, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, vocab)

    def forward(self, tokens):
        return self.proj(torch.tanh(self.embed(tokens)))


def train_step(model, optimizer, tokens, mask):
    logits = model(tokens[:, :-1])
    targets, m = tokens[:, 1:], mask[:, 1:].float()
    token_loss = F.cross_entropy(logits.transpose(1, 2), targets, reduction="none")
    per_sequence = (token_loss * m).sum(1)
    loss = (per_sequence / m.sum(1)).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

    report = torch.tensor(per_sequence.tolist())
    perplexity = torch.exp(report / m.sum(1)).tolist()
    return loss, report, perplexity


torch.manual_seed(0)
lm = TinyLM()
opt = torch.optim.SGD(lm.parameters(), lr=0.5)
tokens = torch.randint(1, 20, (4, 9))
mask = torch.ones_like(tokens)
mask[0, 6:] = 0
before = lm.embed.weight.detach().clone()
loss, report, ppl = train_step(lm, opt, tokens, mask)

print("perplexities:", [round(p, 2) for p in ppl])
assert loss.requires_grad
assert lm.embed.weight.grad is not None and lm.proj.weight.grad.abs().sum() > 0
assert not torch.equal(lm.embed.weight.detach(), before)
assert not report.requires_grad
print("the model is trained; the copied numbers only feed the metric")

"""
expect: none
dynamic: dismiss
source: none, invented

A small character-level language model whose forward takes the inputs and the targets
and returns `(logits, stats)`, where `stats` is a dict of detached tensors (softmax
probabilities of the targets, a per-token entropy) that the loop accumulates for a
calibration plot. The loss logits themselves are returned attached; only the logging copy
is detached, so keeping it across steps does not hold graphs alive. The loop unpacks
`logits, _ = model(x, y)` during most steps and keeps the stats every few steps. The
asserts show the embedding, the GRU and the output layer receive non-zero gradients and
the training loss goes down, and that the logged tensors carry no grad_fn.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class CharLM(nn.Module):
    def __init__(self, vocab=30, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, x, y):
        h, _ = self.rnn(self.emb(x))
        logits = self.out(h)
        with torch.no_grad():
            probs = logits.detach().softmax(-1)
            stats = {
                "p_target": probs.gather(-1, y.unsqueeze(-1)).squeeze(-1),
                "entropy": -(probs * probs.clamp_min(1e-9).log()).sum(-1),
            }
        return logits, stats


model = CharLM()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
text = torch.randint(0, 30, (4, 41))
x, y = text[:, :-1], text[:, 1:]
history = []
losses = []
for step in range(30):
    if step % 10 == 0:
        logits, stats = model(x, y)
        history.append(stats)
    else:
        logits, _ = model(x, y)
    loss = F.cross_entropy(logits.reshape(-1, 30), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    assert model.emb.weight.grad.abs().sum() > 0
    assert model.rnn.weight_hh_l0.grad.abs().sum() > 0
    assert model.out.weight.grad.abs().sum() > 0
    opt.step()
    losses.append(loss.item())

assert losses[-1] < losses[0] - 0.1
assert all(s["p_target"].grad_fn is None and not s["entropy"].requires_grad for s in history)
print("ok")

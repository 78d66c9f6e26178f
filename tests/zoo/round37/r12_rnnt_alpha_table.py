"""
expect: none
dynamic: dismiss
source: https://github.com/HawkAaron/warp-transducer/issues/19

A user asked whether the NumPy reference RNN-T loss could be ported to torch and trained with
autograd; the maintainer warned that its forward pass fills the alpha lattice in place
(alpha[t, u] = ...), suggesting gradients could not pass. In torch this pattern is fine as
long as no recorded op saves a view of the lattice: each cell is written once from fresh
logaddexp results, and CopySlices routes the gradient. The asserts show the in-place lattice
gives the same loss and parameter gradients as an out-of-place (list-of-cells) version, and
that a small transducer trains with it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

BLANK = 0


class TinyTransducer(nn.Module):
    def __init__(self, feat=8, hid=16, vocab=5):
        super().__init__()
        self.enc = nn.Linear(feat, hid)
        self.pred = nn.Embedding(vocab, hid)
        self.joint = nn.Linear(hid, vocab)

    def forward(self, x, y):
        f = torch.tanh(self.enc(x))                      # (T, H)
        ctx = torch.cat([torch.zeros(1, dtype=torch.long), y])
        g = self.pred(ctx)                               # (U+1, H)
        logits = self.joint(torch.tanh(f[:, None, :] + g[None, :, :]))
        return F.log_softmax(logits, dim=-1)             # (T, U+1, V)


def rnnt_loss_inplace(lp, y):
    T, U1, _ = lp.shape
    alpha = lp.new_full((T, U1), float("-inf"))
    alpha[0, 0] = 0.0
    for t in range(T):
        for u in range(U1):
            if t == 0 and u == 0:
                continue
            cands = []
            if t > 0:
                cands.append(alpha[t - 1, u] + lp[t - 1, u, BLANK])
            if u > 0:
                cands.append(alpha[t, u - 1] + lp[t, u - 1, y[u - 1]])
            alpha[t, u] = torch.logsumexp(torch.stack(cands), dim=0)
    return -(alpha[T - 1, U1 - 1] + lp[T - 1, U1 - 1, BLANK])


def rnnt_loss_functional(lp, y):
    T, U1, _ = lp.shape
    rows = []
    for t in range(T):
        row = []
        for u in range(U1):
            if t == 0 and u == 0:
                row.append(lp.new_zeros(()))
                continue
            cands = []
            if t > 0:
                cands.append(rows[t - 1][u] + lp[t - 1, u, BLANK])
            if u > 0:
                cands.append(row[u - 1] + lp[t, u - 1, y[u - 1]])
            row.append(torch.logsumexp(torch.stack(cands), dim=0))
        rows.append(row)
    return -(rows[T - 1][U1 - 1] + lp[T - 1, U1 - 1, BLANK])


x = torch.randn(6, 8)
y = torch.tensor([2, 4, 1])
model = TinyTransducer()

loss_a = rnnt_loss_inplace(model(x, y), y)
grads_a = torch.autograd.grad(loss_a, list(model.parameters()))
loss_b = rnnt_loss_functional(model(x, y), y)
grads_b = torch.autograd.grad(loss_b, list(model.parameters()))
assert torch.allclose(loss_a, loss_b)
for ga, gb in zip(grads_a, grads_b):
    assert torch.allclose(ga, gb, atol=1e-6)
assert all(g.abs().sum() > 0 for g in grads_a)

opt = torch.optim.Adam(model.parameters(), lr=0.05)
history = []
for _ in range(40):
    opt.zero_grad()
    loss = rnnt_loss_inplace(model(x, y), y)
    loss.backward()
    opt.step()
    history.append(loss.item())
assert history[-1] < 0.5 * history[0], history
print("ok", history[0], history[-1])

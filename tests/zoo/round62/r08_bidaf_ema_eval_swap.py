"""
expect: none
dynamic: dismiss
source: https://github.com/galsang/BiDAF-pytorch/blob/165730f9266fe29386f31df7e86ba25bee6b90da/run.py

The BiDAF reading-comprehension trainer keeps an exponential moving average of every weight. It registers
param.data in an EMA object, updates the shadow copy from param.data after each optimizer step, and for
evaluation backs up the live weights, copies the shadow values into param.data, runs the dev set with
gradients disabled, and copies the backup back. All those .data reads and writes look like the classic way
of corrupting gradients, but they happen only outside any recorded computation: after step() and before the
next forward, or inside a no-grad evaluation whose result is never backpropagated. This program trains a
tiny span-prediction model (start/end pointers over a context) with the same EMA bookkeeping and an
evaluation between epochs. The asserts show that training loss falls, the weights after evaluation are
bit-identical to those before it, the shadow weights differ from the live ones but track them, and the
model still receives non-zero gradients after each evaluation.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, EMB, HID, CTX, Q, N = 30, 12, 12, 14, 4, 16


class EMA:
    def __init__(self, mu):
        self.mu = mu
        self.shadow = {}

    def register(self, name, val):
        self.shadow[name] = val.clone()

    def update(self, name, x):
        self.shadow[name] = (1.0 - self.mu) * x + self.mu * self.shadow[name]

    def get(self, name):
        return self.shadow[name]


class SpanReader(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.ctx_rnn = nn.LSTM(EMB, HID, batch_first=True, bidirectional=True)
        self.q_rnn = nn.LSTM(EMB, HID, batch_first=True, bidirectional=True)
        self.start = nn.Linear(4 * HID, 1)
        self.end = nn.Linear(4 * HID, 1)

    def forward(self, ctx, q):
        c, _ = self.ctx_rnn(self.embed(ctx))
        qh, _ = self.q_rnn(self.embed(q))
        att = torch.softmax(torch.bmm(c, qh.transpose(1, 2)), dim=2)
        g = torch.cat([c, torch.bmm(att, qh)], dim=2)
        return self.start(g).squeeze(2), self.end(g).squeeze(2)


ctx = torch.randint(0, VOCAB, (N, CTX))
q = torch.randint(0, VOCAB, (N, Q))
s_idx = torch.randint(0, CTX - 3, (N,))
e_idx = s_idx + torch.randint(0, 3, (N,))
ctx[torch.arange(N), s_idx] = q[:, 0]  # give the answer start a visible cue

model = SpanReader()
ema = EMA(0.9)
for name, param in model.named_parameters():
    if param.requires_grad:
        ema.register(name, param.data)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


def evaluate(model, ema):
    backup = {}
    for name, param in model.named_parameters():
        if param.requires_grad:
            backup[name] = param.data.clone()
            param.data.copy_(ema.get(name))
    with torch.set_grad_enabled(False):
        model.eval()
        p1, p2 = model(ctx, q)
        dev_loss = (F.cross_entropy(p1, s_idx) + F.cross_entropy(p2, e_idx)).item()
        model.train()
    for name, param in model.named_parameters():
        if param.requires_grad:
            param.data.copy_(backup[name])
    return dev_loss


first_loss, last_loss = None, None
for epoch in range(6):
    for it in range(10):
        opt.zero_grad()
        p1, p2 = model(ctx, q)
        loss = F.cross_entropy(p1, s_idx) + F.cross_entropy(p2, e_idx)
        loss.backward()
        assert model.embed.weight.grad.abs().sum() > 0
        opt.step()
        for name, param in model.named_parameters():
            if param.requires_grad:
                ema.update(name, param.data)
        first_loss = loss.item() if first_loss is None else first_loss
        last_loss = loss.item()
    live = {n: p.detach().clone() for n, p in model.named_parameters()}
    dev_loss = evaluate(model, ema)
    assert all(torch.equal(live[n], p) for n, p in model.named_parameters()), "eval must restore weights"

w_live = model.start.weight.detach()
w_ema = ema.get("start.weight")
assert not torch.equal(w_live, w_ema)
assert (w_live - w_ema).abs().max() < w_live.abs().max()
assert last_loss < 0.3 * first_loss, (first_loss, last_loss)
assert dev_loss < 0.3 * first_loss  # the averaged weights are a usable model too
print("train loss %.3f -> %.3f, EMA dev loss %.3f; weights restored after each eval"
      % (first_loss, last_loss, dev_loss))

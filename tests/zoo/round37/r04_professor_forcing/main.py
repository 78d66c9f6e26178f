"""
expect: none
dynamic: dismiss
source: https://github.com/chickenbestlover/RNN-Time-series-Anomaly-Detection/issues/34

A user of an RNN time-series anomaly detector asked why the "simplified professor
forcing" loss does not let gradient pass through the teacher-forced hidden states.
That detach is on purpose: the free-running hiddens are pulled toward the
teacher-forced ones (a stop-gradient target), the teacher-forced path is still
trained by its own loss, and the state carried between BPTT chunks is detached in
a helper. The asserts check that the professor term alone reaches every weight,
that the teacher-forced term trains too, and that the total loss goes down.
"""
import torch
import torch.nn as nn

from model import StepPredictor, free_running

torch.manual_seed(0)
torch.set_num_threads(1)

T, B, F = 40, 4, 3
t = torch.linspace(0, 6.28, T)[:, None, None]
series = torch.sin(t + torch.rand(1, B, F)) + 0.05 * torch.randn(T, B, F)
bptt = 10

model = StepPredictor(F)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
crit = nn.MSELoss()


def chunk_losses(inp, tgt, hidden):
    out1, hids1 = free_running(model, inp[:1], inp.size(0), hidden)
    loss1 = crit(out1, tgt)
    out2, hidden_next, hids2 = model(inp, hidden)
    loss2 = crit(out2, tgt)
    loss3 = crit(hids1, hids2.detach())
    return loss1, loss2, loss3, hidden_next


# professor term alone trains the encoder/rnn through the free-running branch
hidden = model.init_hidden(B)
_, _, l3, _ = chunk_losses(series[:bptt], series[1:bptt + 1], hidden)
l3.backward()
assert model.rnn.weight_hh_l0.grad.abs().sum() > 0
assert model.enc.weight.grad.abs().sum() > 0
model.zero_grad()

epoch_loss = []
for epoch in range(15):
    hidden = model.init_hidden(B)
    total = 0.0
    for i in range(0, T - 1 - bptt, bptt):
        hidden = model.repackage_hidden(hidden)
        opt.zero_grad()
        l1, l2, l3, hidden = chunk_losses(series[i:i + bptt], series[i + 1:i + 1 + bptt], hidden)
        loss = l1 + l2 + l3
        loss.backward()
        opt.step()
        total += loss.item()
    epoch_loss.append(total)

# teacher-forced term by itself still trains the decoder
opt.zero_grad()
_, l2, _, _ = chunk_losses(series[:bptt], series[1:bptt + 1], model.init_hidden(B))
l2.backward()
assert model.dec.weight.grad.abs().sum() > 0
assert epoch_loss[-1] < epoch_loss[0], epoch_loss
print("ok: stop-gradient target and truncated BPTT train as intended")

"""
expect: none
dynamic: dismiss
source: https://github.com/james77777778/CCBDA-2019-Spring-0750730/blob/HEAD/HW3/train.py

A course project forecasting stock prices with a two-layer LSTM carries the hidden
and cell states from one batch to the next and rewraps them as Variable(h.data)
right after the forward. That `.data` cut looks like a detached result, but it is
truncated backpropagation through time: the loss is built from the prediction,
which keeps its graph to all weights, and the cut only stops the next batch from
reaching back into this one. The asserts show every LSTM and head weight gets a
gradient, the carried state has no graph, and the loss goes down.
"""
import torch

from model import StockLSTM, run_epoch

torch.manual_seed(0)
torch.set_num_threads(1)

hidden = 16
series = torch.sin(torch.linspace(0, 12, 8 * 6 * 10 + 1)).unsqueeze(-1).repeat(1, 4)
windows = series[:-1].reshape(8 * 6, 10, 4)
targets = series[10::10, 0][: 8 * 6]
batches = [(windows[i:i + 6], targets[i:i + 6]) for i in range(0, 48, 6)]

net = StockLSTM(4, hidden)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)

first, h = run_epoch(net, opt, batches, hidden)
assert not h.requires_grad and h.grad_fn is None
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in net.parameters())
for _ in range(8):
    last, _ = run_epoch(net, opt, batches, hidden)
assert sum(last) < sum(first)
print("ok", sum(first), sum(last))

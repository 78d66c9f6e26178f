"""
expect: GL001 awd.py:48
dynamic: confirm
source: https://github.com/fastai/fastai2/pull/427

fastai2's AWD-LSTM wraps the LSTM in a WeightDropout module: the real
hidden-to-hidden matrix is kept as a parameter `weight_hh_l0_raw`, and on every
forward a dropped-out copy is written into the LSTM. The copy was made from
`raw_w.data`, so the dropped matrix is a fresh tensor with no history: the LSTM
still runs and the loss still falls (the input weights, biases, embedding and
decoder train), but the raw recurrent matrix never receives a gradient and is
never updated. The PR reproduced it with `weight_hh_l0_raw.grad is None` and
dropped the `.data`. The time-locked dropout mask next to it is also built
from `x.data`, which is fine, because the mask is only a constant factor. The
asserts show the raw matrix frozen (grad None, unchanged) with `.data`, and
receiving gradients and moving once the dropout is applied to the parameter.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from awd import RNNDropout, WeightDropout

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, EMB, HID, BPTT, BS = 30, 12, 16, 8, 4


class TinyAWD(nn.Module):
    def __init__(self, keep_graph):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, EMB)
        self.rnn = WeightDropout(nn.LSTM(EMB, HID), 0.3, keep_graph=keep_graph)
        self.hidden_dp = RNNDropout(0.2)
        self.dec = nn.Linear(HID, VOCAB)

    def forward(self, tokens):
        out, _ = self.rnn(self.emb(tokens))
        return self.dec(self.hidden_dp(out))


def train(keep_graph, steps=5):
    torch.manual_seed(0)
    model = TinyAWD(keep_graph)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    data = torch.randint(0, VOCAB, (BPTT + 1, BS))
    raw0 = model.rnn.weight_hh_l0_raw.detach().clone()
    ih0 = model.rnn.module.weight_ih_l0.detach().clone()
    grads = []
    for _ in range(steps):
        opt.zero_grad()
        logits = model(data[:-1])
        loss = F.cross_entropy(logits.view(-1, VOCAB), data[1:].reshape(-1))
        loss.backward()
        grads.append(model.rnn.weight_hh_l0_raw.grad)
        opt.step()
    raw_moved = not torch.equal(raw0, model.rnn.weight_hh_l0_raw)
    ih_moved = not torch.equal(ih0, model.rnn.module.weight_ih_l0)
    return grads, raw_moved, ih_moved


def main():
    grads, raw_moved, ih_moved = train(keep_graph=False)
    assert all(g is None for g in grads)
    assert not raw_moved and ih_moved

    grads, raw_moved, ih_moved = train(keep_graph=True)
    assert all(g is not None and g.abs().sum() > 0 for g in grads)
    assert raw_moved and ih_moved
    print("with .data: weight_hh_l0_raw frozen; without: it trains")


if __name__ == "__main__":
    main()

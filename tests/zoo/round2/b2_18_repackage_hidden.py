"""expect: none
source: https://github.com/LiyuanLucasLiu/LD-Net/issues/6

A language model is trained with truncated backpropagation through time: a
`repackage_hidden` helper detaches the recurrent state carried from the
previous chunk before each new chunk is processed. As the maintainer explained
in the issue, the detach is there on purpose, so that backward does not try to
go through the previous (already freed) chunk; the LSTM weights still get a
gradient from every chunk.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


class LM(nn.Module):
    def __init__(self, vocab=12, dim=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.LSTM(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens, hidden):
        y, hidden = self.rnn(self.emb(tokens), hidden)
        return self.out(y), hidden


def train_epoch(model, opt, stream, bptt=5):
    hidden = None
    for start in range(0, stream.size(1) - 1 - bptt, bptt):
        inp = stream[:, start:start + bptt]
        tgt = stream[:, start + 1:start + 1 + bptt]
        if hidden is not None:
            hidden = repackage_hidden(hidden)
        logits, hidden = model(inp, hidden)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss


if __name__ == "__main__":
    torch.manual_seed(0)
    model = LM()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    train_epoch(model, opt, torch.randint(0, 12, (2, 31)))
    assert model.rnn.weight_hh_l0.grad.abs().sum() > 0
    assert model.emb.weight.grad.abs().sum() > 0
    print("ok: truncated BPTT trains the LSTM")

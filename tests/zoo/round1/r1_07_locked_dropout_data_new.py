"""expect: none
dynamic: dismiss
source: https://github.com/donglixp/coarse2fine/blob/master/wikisql/table/modules/LockedDropout.py

Variational ("locked") dropout as in AWD-LSTM: the mask is allocated with `x.data.new(1, B, H).bernoulli_(1 - p)` and then multiplied into the activations. `.data` is used only to pick the dtype/device of a brand-new random tensor and `bernoulli_` fills that new tensor, so the product keeps its history and the LSTM below it trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LockedDropout(nn.Module):
    def forward(self, x, p=0.3):
        if not self.training or not p:
            return x
        m = x.data.new(1, x.size(1), x.size(2)).bernoulli_(1 - p)
        mask = m / (1 - p)
        return mask.expand_as(x) * x


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(30, 16)
        self.lstm = nn.LSTM(16, 16)
        self.drop = LockedDropout()
        self.out = nn.Linear(16, 5)

    def forward(self, tokens):
        h, _ = self.lstm(self.drop(self.emb(tokens)))
        return self.out(self.drop(h))


model = Tagger()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
tokens = torch.randint(0, 30, (10, 6))
tags = torch.randint(0, 5, (10, 6))
for _ in range(5):
    loss = F.cross_entropy(model(tokens).reshape(-1, 5), tags.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()

print("lstm grad norm", model.lstm.weight_ih_l0.grad.norm().item())
assert model.lstm.weight_ih_l0.grad.norm() > 0

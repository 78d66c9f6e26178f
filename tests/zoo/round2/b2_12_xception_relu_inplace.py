"""expect: GL005 25
dynamic: confirm
source: https://github.com/osmr/imgclsmob/issues/13

An Xception-style unit sends its input through a skip projection and, in the
main branch, first applies a shared `nn.ReLU(inplace=True)` to that same
input. The skip projection saved the input for its weight gradient, so the
in-place ReLU invalidates it and `loss.backward()` raises "one of the variables
needed for gradient computation has been modified by an inplace operation".
The reporter fixed it by removing `inplace=True`.
"""
import torch
import torch.nn as nn


class XceptionUnit(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.skip = nn.Linear(ch, ch)
        self.activ = nn.ReLU(inplace=True)
        self.body = nn.Linear(ch, ch)

    def forward(self, x):
        identity = self.skip(x)
        x = self.activ(x)
        return self.body(x) + identity


class TinyXception(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Linear(6, 8)
        self.unit = XceptionUnit(8)
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        return self.head(self.unit(self.stem(x)))


if __name__ == "__main__":
    torch.manual_seed(0)
    net = TinyXception()
    loss = net(torch.randn(5, 6)).pow(2).mean()
    try:
        loss.backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err)
    else:
        raise AssertionError("expected the in-place error")
    print("ok: in-place ReLU breaks backward")

"""expect: GL005 coupling.py:54, GL005 coupling.py:55
dynamic: confirm
source: https://github.com/bayesiains/nflows/issues/89

A small normalizing flow on the unit square built from piecewise-linear
coupling layers (coupling.py). The conditioner ends with tanh, whose backward
reuses its own output. The coupling layer slices the conditioner output into
bin-width and bin-height logits and rescales them with `/=` by
sqrt(hidden_features). Those slices are views of the tanh output that autograd
saved, so the in-place division bumps its version counter and the first
backward fails with "modified by an inplace operation"; an out-of-place division
fixes it.
"""
import torch
import torch.nn as nn

from coupling import PiecewiseCoupling


class Flow(nn.Module):
    def __init__(self, dim=4):
        super().__init__()
        m = torch.tensor([1.0, 0.0, 1.0, 0.0])
        self.layers = nn.ModuleList([PiecewiseCoupling(dim, m), PiecewiseCoupling(dim, 1 - m)])

    def log_prob(self, x):
        total = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            total = total + ld
        return total


def main():
    torch.manual_seed(0)
    flow = Flow()
    opt = torch.optim.Adam(flow.parameters(), lr=1e-3)
    data = torch.rand(32, 4) ** 2
    try:
        for _ in range(3):
            loss = -flow.log_prob(data).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
        print("in-place rescaling of the conditioner output broke backward")
    else:
        raise AssertionError("expected backward to fail")


if __name__ == "__main__":
    main()

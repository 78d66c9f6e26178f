"""
expect: none
dynamic: dismiss
source: kinds check 20, kind 2 (written for this check)

A weather nowcaster wraps a locally bound `conv` in
`nn.Sequential(nn.ConstantPad1d(1, 0.0), conv, nn.ReLU())`. The pad copies its
input and saves nothing of it, so the conv saves the padded copy; editing the
station series `obs` in place afterwards is safe. The asserts show backward runs
and the conv weight gradient equals one computed on an unedited clone.
"""
import torch
import torch.nn as nn

torch.manual_seed(3)


class Nowcaster(nn.Module):
    def __init__(self, stations=6):
        super().__init__()
        self.embed = nn.Linear(stations, stations)
        conv = nn.Conv1d(stations, stations, kernel_size=3)
        self.block = nn.Sequential(nn.ConstantPad1d(1, 0.0), conv, nn.ReLU())

    def forward(self, series, bias):
        obs = self.embed(series).transpose(1, 2).contiguous()
        trend = self.block(obs)
        obs.sub_(bias)                       # no layer saved obs itself
        return trend.mean() + obs.mean()


net = Nowcaster()
series = torch.randn(2, 24, 6)
bias = torch.randn(2, 6, 1)
net(series, bias).backward()
got = net.block[1].weight.grad.clone()

net.zero_grad()
obs = net.embed(series).transpose(1, 2).contiguous()
(ref,) = torch.autograd.grad(net.block(obs).mean(), net.block[1].weight)
assert torch.allclose(got, ref, atol=1e-6)
print("ok: the pad copied the input, so the in-place edit is harmless")

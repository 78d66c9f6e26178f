"""
expect: GL005 47
dynamic: confirm
source: https://github.com/XuezheMax/wolf/pull/1

An affine coupling flow in the style of Wolf's Affine transform: a conditioning network maps one half of the
input to parameters, which are split into a shift and a raw log-scale, and the scale is computed with in-place
operations (mul_(0.5).tanh_()) "to save memory". Here the conditioning network ends in tanh, which saves its
output for backward, and the log-scale is a view of that output, so the in-place mul_ rewrites the very tensor
TanhBackward needs: backward raises "modified by an inplace operation", the error the pull request reports and
works around. The program shows the error with try/except and then trains the same flow with the out-of-place
expression the maintainer suggested, asserting that the conditioning network gets gradients and the negative
log-likelihood drops.
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

D, HALF = 4, 2


class ConditioningNet(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(HALF, hidden), nn.ELU(), nn.Linear(hidden, 2 * HALF))

    def forward(self, x):
        return torch.tanh(self.body(x))


class AffineCoupling(nn.Module):
    def __init__(self, flip, alpha=1.0, in_place=True):
        super().__init__()
        self.net = ConditioningNet()
        self.flip = flip
        self.alpha = alpha
        self.in_place = in_place

    def calc_params(self, params):
        mu = params.narrow(1, 0, HALF)
        log_scale = params.narrow(1, HALF, HALF)
        if self.in_place:
            scale = log_scale.mul_(0.5).tanh_().mul(self.alpha).add(1.0)
        else:
            scale = log_scale.mul(0.5).tanh().mul(self.alpha).add(1.0)
        return mu, scale

    def forward(self, z):
        z1, z2 = (z[:, HALF:], z[:, :HALF]) if self.flip else (z[:, :HALF], z[:, HALF:])
        mu, scale = self.calc_params(self.net(z1))
        z2 = scale * z2 + mu
        logdet = scale.log().sum(dim=1)
        out = torch.cat([z2, z1], dim=1) if self.flip else torch.cat([z1, z2], dim=1)
        return out, logdet


class Flow(nn.Module):
    def __init__(self, in_place):
        super().__init__()
        self.layers = nn.ModuleList([AffineCoupling(flip=i % 2 == 1, in_place=in_place) for i in range(4)])

    def nll(self, x):
        z, total_logdet = x, torch.zeros(x.shape[0])
        for layer in self.layers:
            z, logdet = layer(z)
            total_logdet = total_logdet + logdet
        log_pz = -0.5 * (z.pow(2) + math.log(2 * math.pi)).sum(dim=1)
        return -(log_pz + total_logdet).mean()


data = torch.randn(512, D) @ torch.tensor([[1.0, 0.5, 0.0, 0.0], [0.0, 1.0, 0.3, 0.0],
                                           [0.0, 0.0, 0.5, 0.2], [0.0, 0.0, 0.0, 2.0]]) + 1.0

flow = Flow(in_place=True)
try:
    flow.nll(data[:64]).backward()
    message = None
except RuntimeError as err:
    message = str(err)
assert message is not None and "modified by an inplace operation" in message, message
print("in-place scale computation breaks backward")

torch.manual_seed(0)
flow = Flow(in_place=False)
optimizer = torch.optim.Adam(flow.parameters(), lr=3e-3)
with torch.no_grad():
    start = flow.nll(data).item()
for step in range(150):
    batch = data[torch.randint(0, data.shape[0], (64,))]
    optimizer.zero_grad()
    loss = flow.nll(batch)
    loss.backward()
    optimizer.step()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in flow.parameters())
with torch.no_grad():
    end = flow.nll(data).item()
assert end < start - 0.5, (start, end)
print(f"out-of-place scale: NLL {start:.3f} -> {end:.3f}")

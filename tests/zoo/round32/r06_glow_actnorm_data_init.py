"""
expect: none
dynamic: dismiss
source: https://github.com/rosinality/glow-pytorch/blob/HEAD/model.py

Glow's ActNorm layer does data-dependent initialisation: on the first batch it writes the
per-channel mean and inverse std into its loc/scale parameters with .data.copy_() under
no_grad, flips an "initialized" flag, and only then uses them. The in-place write happens
before any recorded op has saved loc/scale, so no saved tensor is clobbered. The asserts show
the first output is normalised, backward through a two-step flow matches a freshly built
copy with the same values, and the NLL falls during training.
"""
import math
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class ActNorm(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1, channels))
        self.logs = nn.Parameter(torch.zeros(1, channels))
        self.register_buffer("initialized", torch.tensor(0, dtype=torch.uint8))

    @torch.no_grad()
    def initialize(self, x):
        mean, std = x.mean(0, keepdim=True), x.std(0, keepdim=True)
        self.loc.data.copy_(-mean)
        self.logs.data.copy_(torch.log(1 / (std + 1e-6)))
        self.initialized.fill_(1)

    def forward(self, x):
        if self.initialized.item() == 0:
            self.initialize(x)
        y = self.logs.exp() * (x + self.loc)
        return y, self.logs.sum().expand(x.size(0))


class AffineCoupling(nn.Module):
    def __init__(self, channels):
        super().__init__()
        half = channels // 2
        self.net = nn.Sequential(nn.Linear(half, 32), nn.Tanh(), nn.Linear(32, 2 * half))

    def forward(self, x):
        a, b = x.chunk(2, dim=1)
        log_s, t = self.net(a).chunk(2, dim=1)
        s = torch.sigmoid(log_s + 2)
        return torch.cat([a, (b + t) * s], 1), torch.log(s).sum(1)


class Flow(nn.Module):
    def __init__(self, c=4):
        super().__init__()
        self.layers = nn.ModuleList([ActNorm(c), AffineCoupling(c), ActNorm(c), AffineCoupling(c)])

    def forward(self, x):
        logdet = torch.zeros(x.size(0))
        for layer in self.layers:
            x, ld = layer(x)
            logdet = logdet + ld
        return x, logdet


def nll(flow, x):
    z, logdet = flow(x)
    log_pz = -0.5 * (z ** 2).sum(1) - 0.5 * z.size(1) * math.log(2 * math.pi)
    return -(log_pz + logdet).mean()


data = torch.randn(256, 4) * torch.tensor([3.0, 0.5, 2.0, 1.0]) + torch.tensor([1.0, -2.0, 0.0, 4.0])
flow = Flow()
first_out, _ = flow.layers[0](data)
assert first_out.mean(0).abs().max() < 1e-4 and (first_out.std(0) - 1).abs().max() < 1e-3

# gradient after in-place init equals gradient of a clone built with the same values
flow.zero_grad()
nll(flow, data[:64]).backward()
twin = Flow()
twin.load_state_dict(flow.state_dict())
nll(twin, data[:64]).backward()
for p, q in zip(flow.parameters(), twin.parameters()):
    assert torch.allclose(p.grad, q.grad, atol=1e-6)

opt = torch.optim.Adam(flow.parameters(), lr=1e-2)
start = nll(flow, data).item()
for _ in range(100):
    opt.zero_grad()
    loss = nll(flow, data)
    loss.backward()
    opt.step()
assert nll(flow, data).item() < start - 0.05, (start, nll(flow, data).item())
print("ok", start, nll(flow, data).item())

"""
expect: GL005 41
expect: GL005 42
dynamic: confirm
source: https://github.com/chaiyujin/glow-pytorch/pull/6

In this Glow port the affine coupling layer split `z` into two views and updated the second
half in place (`z2 += shift`, `z2 *= scale`) after the coupling network had already read the
first half. Both views share `z`'s storage, which the network's first linear layer saved for
backward, so the flow's NLL cannot be backpropagated ("Fixed un-computable gradients"
replaced them with out-of-place ops; each of the two updates alone already breaks it).
The asserts show the forward pass gives a finite NLL but backward raises the
inplace-modification error, while the out-of-place coupling trains.
"""
import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.manual_seed(0)


class CouplingNet(nn.Module):
    def __init__(self, half, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(half, hidden), nn.ReLU(), nn.Linear(hidden, 2 * half))

    def forward(self, x):
        return self.net(x)


class AffineCoupling(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.half = channels // 2
        self.f = CouplingNet(self.half)

    def forward(self, z, logdet):
        z1, z2 = z[:, :self.half], z[:, self.half:]
        h = self.f(z1)
        shift, scale = h[:, 0::2], torch.sigmoid(h[:, 1::2] + 2.0)
        z2 += shift
        z2 *= scale
        logdet = logdet + torch.log(scale).sum(dim=1)
        return torch.cat([z1, z2], dim=1), logdet


class OutOfPlaceCoupling(AffineCoupling):
    def forward(self, z, logdet):
        z1, z2 = z[:, :self.half], z[:, self.half:]
        h = self.f(z1)
        shift, scale = h[:, 0::2], torch.sigmoid(h[:, 1::2] + 2.0)
        z2 = (z2 + shift) * scale
        logdet = logdet + torch.log(scale).sum(dim=1)
        return torch.cat([z1, z2], dim=1), logdet


class Flow(nn.Module):
    def __init__(self, coupling_cls, channels=6):
        super().__init__()
        self.actnorm = nn.Linear(channels, channels)      # stands in for actnorm + invconv
        self.coupling = coupling_cls(channels)

    def nll(self, x):
        z = self.actnorm(x)
        logdet = torch.zeros(x.shape[0])
        z, logdet = self.coupling(z, logdet)
        log_pz = -0.5 * (z ** 2).sum(dim=1)
        return -(log_pz + logdet).mean()


x = torch.randn(128, 6) * torch.tensor([1.0, 2.0, 0.5, 1.5, 0.7, 1.2])

flow = Flow(AffineCoupling)
loss = flow.nll(x)                      # forward runs and gives a finite NLL
assert torch.isfinite(loss)
try:
    loss.backward()
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "in-place coupling update must break backward"

flow = Flow(OutOfPlaceCoupling)
opt = torch.optim.Adam(flow.parameters(), lr=1e-2)
hist = []
for _ in range(100):
    loss = flow.nll(x)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
assert hist[-1] < hist[0] - 0.1
print("p06 ok: in-place z2 updates corrupt the saved coupling input", hist[0], hist[-1])

"""
expect: none
dynamic: dismiss
source: https://github.com/kareemalsawah/RealNVP-torch/blob/bf4989b533898e174890dc7be3aa2f490d12a3eb/models/RealNVP.py

A RealNVP flow for small images: checkerboard affine couplings interleaved with
ActNorm. Two things look alarming. ActNorm does data-dependent initialisation by
assigning `self.log_scale.data = ...` and `self.shift.data = ...` from the first batch,
then uses the parameters in the same forward. And the flow sums its log-determinants
with `log_det_jac += log_det`, where the first term *is* the coupling layer's
`log_scale` tensor (an intermediate result). Neither breaks autograd: the `.data`
assignments happen before the parameters are used, so the graph records the new values
and gradients flow into them from then on; and the in-place add writes into a tensor no
recorded op saved (exp saved its own output, the multiply saved the exp result), so
backward is exact. The program checks the in-place accumulation gives the same gradients
as an out-of-place sum, that ActNorm's parameters get gradients after initialisation,
and that the negative log-likelihood falls during training.
"""
import copy
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class ActNorm(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.C = C
        self.log_scale = nn.Parameter(torch.zeros((1, C, 1, 1)))
        self.shift = nn.Parameter(torch.zeros((1, C, 1, 1)))
        self.first_batch = True

    def forward(self, x):
        if self.first_batch:
            self.log_scale.data = -1 * torch.log(torch.std(x, dim=(0, 2, 3)) + 1e-4).reshape(1, self.C, 1, 1)
            self.shift.data = -1 * torch.mean(x, dim=(0, 2, 3)).reshape(1, self.C, 1, 1) * torch.exp(self.log_scale.data)
            self.first_batch = False
        return x * torch.exp(self.log_scale) + self.shift, self.log_scale * torch.ones_like(x)


class AffineCoupling(nn.Module):
    def __init__(self, parity, H=4, W=4, hidden=8):
        super().__init__()
        mask = torch.tensor([[(h + w + parity) % 2 for w in range(W)] for h in range(H)], dtype=torch.float32)
        self.register_buffer("mask", mask.view(1, 1, H, W))
        self.net = nn.Sequential(nn.Conv2d(1, hidden, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(hidden, 2, 3, padding=1))
        self.scale = nn.Parameter(torch.zeros(1))
        self.scale_shift = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        x_ = x * self.mask
        log_scale, t = torch.chunk(self.net(x_), 2, dim=1)
        log_scale = self.scale * torch.tanh(log_scale) + self.scale_shift
        t = t * (1.0 - self.mask)
        log_scale = log_scale * (1.0 - self.mask)
        z = x * torch.exp(log_scale) + t
        log_det_jacobian = log_scale
        return z, log_det_jacobian


class FlowSequential(nn.Module):
    def __init__(self, layers, accumulate_in_place=True):
        super().__init__()
        self.layers = nn.Sequential(*layers)
        self.accumulate_in_place = accumulate_in_place

    def forward(self, x):
        log_det_jac = None
        for layer in self.layers:
            x, log_det = layer(x)
            if log_det_jac is None:
                log_det_jac = log_det
            elif self.accumulate_in_place:
                log_det_jac += log_det
            else:
                log_det_jac = log_det_jac + log_det
        return x, log_det_jac


def make_flow(in_place=True):
    return FlowSequential([AffineCoupling(0), ActNorm(1), AffineCoupling(1), ActNorm(1), AffineCoupling(0)],
                          accumulate_in_place=in_place)


def nll(flow, x):
    z, log_det = flow(x)
    log_pz = -0.5 * (z ** 2 + math.log(2 * math.pi))
    log_px = (log_pz + log_det).sum(dim=(1, 2, 3))
    return -log_px.mean()


def sample_data(n, g):
    base = torch.randn(n, 1, 4, 4, generator=g)
    return 0.5 * base + 0.8 * base.roll(1, dims=3) + 1.5


g = torch.Generator().manual_seed(1)
x0 = sample_data(64, g)

flow = make_flow(in_place=True)
with torch.no_grad():
    flow(x0)                          # ActNorm picks its data-dependent initial values
    for m in flow.modules():
        if isinstance(m, AffineCoupling):
            m.scale.fill_(0.5)        # make the couplings non-trivial for the check

twin = make_flow(in_place=False)
twin.load_state_dict(copy.deepcopy(flow.state_dict()))
for m in twin.modules():
    if isinstance(m, ActNorm):
        m.first_batch = False

loss_a = nll(flow, x0)
loss_a.backward()
loss_b = nll(twin, x0)
loss_b.backward()
assert torch.allclose(loss_a, loss_b)
for (na, pa), (nb, pb) in zip(flow.named_parameters(), twin.named_parameters()):
    assert torch.allclose(pa.grad, pb.grad, atol=1e-6), na
for m in flow.modules():
    if isinstance(m, ActNorm):
        assert m.log_scale.grad is not None and m.log_scale.grad.abs().sum() > 0

opt = torch.optim.Adam(flow.parameters(), lr=1e-2)
hist = []
for step in range(150):
    opt.zero_grad()
    loss = nll(flow, sample_data(64, g))
    loss.backward()
    opt.step()
    hist.append(loss.item())
assert sum(hist[-10:]) / 10 < hist[0] - 1.0, (hist[0], hist[-1])
print("r08 ok: in-place log-det sum matches out-of-place grads; NLL %.2f -> %.2f" % (hist[0], hist[-1]))

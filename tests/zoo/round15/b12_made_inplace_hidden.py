"""
expect: GL005 51
dynamic: confirm
source: https://github.com/pyro-ppl/pyro/issues/3154

In the discussion of ConditionalAutoRegressiveNN's skip layers, a maintainer pointed out that the
input only has to be cloned if the hidden activations are overwritten in place, e.g.
`h[...] = self.f(layer(h))`. This program builds that in-place variant of a masked autoregressive
network used as a normalizing-flow conditioner: each masked linear layer saves its input `h` for the
weight gradient, and writing the activation back into the same buffer bumps `h`'s version, so
backward of the flow's negative log-likelihood raises a RuntimeError mentioning "inplace". The
out-of-place loop (identical outputs) trains the flow.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MaskedLinear(nn.Linear):
    def __init__(self, d_in, d_out, mask):
        super().__init__(d_in, d_out)
        self.register_buffer("mask", mask)

    def forward(self, x):
        return F.linear(x, self.weight * self.mask, self.bias)


class AutoRegressiveNN(nn.Module):
    def __init__(self, dim=4, hidden=4, depth=3, overwrite_hidden=True):
        super().__init__()
        degrees_in = torch.arange(1, dim + 1)
        degrees_h = torch.arange(hidden) % (dim - 1) + 1
        mask_in = (degrees_h[:, None] >= degrees_in[None, :]).float()
        mask_hh = (degrees_h[:, None] >= degrees_h[None, :]).float()
        mask_out = (degrees_in[:, None] > degrees_h[None, :]).float()
        self.layers = nn.ModuleList(
            [MaskedLinear(dim, hidden, mask_in)]
            + [MaskedLinear(hidden, hidden, mask_hh) for _ in range(depth - 2)]
        )
        self.out = MaskedLinear(hidden, 2 * dim, mask_out.repeat(2, 1))
        self.skip = MaskedLinear(dim, 2 * dim, (degrees_in[:, None] > degrees_in[None, :]).float().repeat(2, 1))
        self.overwrite_hidden = overwrite_hidden
        self.f = nn.ReLU()

    def forward(self, x):
        h = self.f(self.layers[0](x))
        for layer in self.layers[1:]:
            if self.overwrite_hidden:
                h[...] = self.f(layer(h))
            else:
                h = self.f(layer(h))
        mean, log_scale = (self.out(h) + self.skip(x)).chunk(2, dim=-1)
        return mean, log_scale


def flow_nll(net, x):
    mean, log_scale = net(x)
    log_scale = log_scale.clamp(-5, 5)
    z = (x - mean) * torch.exp(-log_scale)
    return (0.5 * z.pow(2) + log_scale).sum(-1).mean()


x = torch.randn(32, 4)

torch.manual_seed(1)
net = AutoRegressiveNN()
try:
    flow_nll(net, x).backward()
    raise AssertionError("expected an in-place modification error")
except RuntimeError as err:
    assert "inplace" in str(err), err

torch.manual_seed(1)
safe = AutoRegressiveNN(overwrite_hidden=False)
with torch.no_grad():
    assert torch.allclose(flow_nll(safe, x), flow_nll(net, x))
opt = torch.optim.Adam(safe.parameters(), lr=1e-2)
w0 = safe.layers[1].weight.detach().clone()
for _ in range(3):
    opt.zero_grad()
    flow_nll(safe, x).backward()
    opt.step()
assert not torch.equal(w0, safe.layers[1].weight.detach())
print("ok: h[...] = f(layer(h)) overwrites a tensor the layer saved")

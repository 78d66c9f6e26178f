"""
expect: none
dynamic: dismiss
source: https://github.com/vislearn/FrEIA/pull/171

A volume-preserving normalizing flow built from GIN coupling blocks, trained by maximum
likelihood on 4-D data. Each block splits the input in two halves; a subnetwork reads one
half and predicts log-scales s and shifts t for the other, s is soft-clamped with an
arctangent and then centred in place with s -= s.mean(1, keepdim=True), so the log-
determinant is exactly zero. The pull request replaced that line with an out-of-place
subtraction to fix an in-place error, but in this configuration the in-place edit is safe:
s is the fresh output of a multiplication by a Python float, which no recorded operation
saved for its backward, and the mean is taken before the edit. The asserts check that the
in-place block gives exactly the gradients of the out-of-place version, that every block is
volume preserving, and that training lowers the negative log-likelihood.
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def subnet_fc(c_in, c_out):
    return nn.Sequential(nn.Linear(c_in, 32), nn.ReLU(), nn.Linear(32, c_out))


class GINCouplingBlock(nn.Module):
    def __init__(self, dim, subnet_constructor, clamp=2.0, inplace=True):
        super().__init__()
        self.split_len1 = dim // 2
        self.split_len2 = dim - dim // 2
        self.clamp = clamp
        self.f_clamp = lambda u: 0.636 * torch.atan(u)
        self.inplace = inplace
        self.subnet1 = subnet_constructor(self.split_len1, self.split_len2 * 2)
        self.subnet2 = subnet_constructor(self.split_len2, self.split_len1 * 2)

    def _coupling1(self, x1, u2):
        a2 = self.subnet2(u2)
        s2, t2 = a2[:, :self.split_len1], a2[:, self.split_len1:]
        s2 = self.clamp * self.f_clamp(s2)
        if self.inplace:
            s2 -= s2.mean(1, keepdim=True)
        else:
            s2 = s2 - s2.mean(1, keepdim=True)
        return torch.exp(s2) * x1 + t2, s2.sum(1)

    def _coupling2(self, x2, u1):
        a1 = self.subnet1(u1)
        s1, t1 = a1[:, :self.split_len2], a1[:, self.split_len2:]
        s1 = self.clamp * self.f_clamp(s1)
        if self.inplace:
            s1 -= s1.mean(1, keepdim=True)
        else:
            s1 = s1 - s1.mean(1, keepdim=True)
        return torch.exp(s1) * x2 + t1, s1.sum(1)

    def forward(self, x):
        x1, x2 = x[:, :self.split_len1], x[:, self.split_len1:]
        y2, j2 = self._coupling2(x2, x1)
        y1, j1 = self._coupling1(x1, y2)
        return torch.cat([y1, y2], 1), j1 + j2


class Flow(nn.Module):
    def __init__(self, dim=4, n_blocks=4, inplace=True):
        super().__init__()
        self.blocks = nn.ModuleList(GINCouplingBlock(dim, subnet_fc, inplace=inplace) for _ in range(n_blocks))
        self.perms = [torch.randperm(dim) for _ in range(n_blocks)]

    def forward(self, x):
        logdet = torch.zeros(x.size(0))
        for block, perm in zip(self.blocks, self.perms):
            x, j = block(x[:, perm])
            logdet = logdet + j
        return x, logdet

    def nll(self, x):
        z, logdet = self(x)
        log_pz = -0.5 * (z ** 2).sum(1) - 0.5 * z.size(1) * math.log(2 * math.pi)
        return -(log_pz + logdet).mean()


rot, _ = torch.linalg.qr(torch.randn(4, 4))
data = (torch.randn(2048, 4) * torch.tensor([2.0, 0.5, 1.5, 1 / 1.5])) @ rot

flow = Flow(inplace=True)
ref = Flow(inplace=False)
ref.load_state_dict(flow.state_dict())
ref.perms = flow.perms
batch = data[:256]
flow.nll(batch).backward()
ref.nll(batch).backward()
for p, q in zip(flow.parameters(), ref.parameters()):
    assert torch.allclose(p.grad, q.grad, atol=1e-6)
_, logdet = flow(batch)
assert logdet.abs().max() < 1e-4, "GIN blocks must be volume preserving"

opt = torch.optim.Adam(flow.parameters(), lr=3e-3)
start = flow.nll(data).item()
for step in range(300):
    b = data[torch.randint(0, len(data), (256,))]
    loss = flow.nll(b)
    opt.zero_grad()
    loss.backward()
    opt.step()
end = flow.nll(data).item()
assert end < start - 0.5, (start, end)
print(f"NLL {start:.3f} -> {end:.3f}")

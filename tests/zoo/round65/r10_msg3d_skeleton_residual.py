"""
expect: GL005 75
dynamic: confirm
source: https://github.com/kennymckormick/pyskl/issues/242

Video action recognition from skeleton sequences (MS-G3D style graph convolution, as
in pyskl). `ST_MSGCN.forward` aggregates joints over multi-scale adjacency powers, runs
the result through an MLP whose last layer is a ReLU, and then adds the residual with
`out += res`. ReluBackward keeps its output to compute the gradient, and the in-place
add bumps that tensor's version even when the residual is the constant 0 (residual
disabled), so the first backward raises "modified by an inplace operation ... output 0
of Relu/ReluBackward0". The same `out += res` in `MSTCN.forward` is harmless: there it edits
the output of torch.cat, which no backward node keeps. The asserts catch the error on
the default model and show that with `out = out + res` the classifier trains to high
accuracy on two synthetic actions.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def normalize_digraph(A):
    deg = A.sum(0)
    return A / np.maximum(deg, 1e-6)[None, :]


def k_adjacency(A, k):
    I = np.eye(len(A))
    if k == 0:
        return I
    Ak = np.minimum(np.linalg.matrix_power(A + I, k), 1) - np.minimum(np.linalg.matrix_power(A + I, k - 1), 1)
    return Ak + I


class MLP(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.layers = nn.ModuleList([nn.Conv2d(in_channels, out_channels, kernel_size=1),
                                     nn.BatchNorm2d(out_channels), nn.ReLU()])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class ST_MSGCN(nn.Module):
    def __init__(self, in_channels, out_channels, A, num_scales, residual=False, inplace_residual=True):
        super().__init__()
        self.num_scales = num_scales
        A_scales = np.stack([normalize_digraph(k_adjacency(A, k)) for k in range(num_scales)])
        self.register_buffer("A", torch.tensor(A_scales, dtype=torch.float32))
        self.PA = nn.Parameter(self.A.clone())
        nn.init.uniform_(self.PA, -1e-6, 1e-6)
        self.mlp = MLP(in_channels * num_scales, out_channels)
        if not residual:
            self.residual = lambda x: 0
        else:
            self.residual = lambda x: x
        self.inplace_residual = inplace_residual
        self.act = nn.ReLU()

    def forward(self, x):
        N, C, T, V = x.shape
        A = self.A + self.PA
        res = self.residual(x)
        agg = torch.einsum("kvu,nctv->nkctu", A, x)
        agg = agg.reshape(N, self.num_scales * C, T, V)
        out = self.mlp(agg)
        if self.inplace_residual:
            out += res
        else:
            out = out + res
        return self.act(out)


class MSTCN(nn.Module):
    def __init__(self, channels, dilations=(1, 2)):
        super().__init__()
        branch = channels // len(dilations)
        self.branches = nn.ModuleList([
            nn.Sequential(nn.Conv2d(channels, branch, 1), nn.BatchNorm2d(branch), nn.ReLU(),
                          nn.Conv2d(branch, branch, (3, 1), padding=(d, 0), dilation=(d, 1)),
                          nn.BatchNorm2d(branch))
            for d in dilations])
        self.residual = lambda x: x
        self.act = nn.ReLU()

    def forward(self, x):
        res = self.residual(x)
        out = torch.cat([tempconv(x) for tempconv in self.branches], dim=1)
        out += res
        return self.act(out)


class TinyMSG3D(nn.Module):
    def __init__(self, A, num_classes=2, inplace_residual=True):
        super().__init__()
        self.gcn = ST_MSGCN(3, 16, A, num_scales=3, inplace_residual=inplace_residual)
        self.tcn = MSTCN(16)
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.tcn(self.gcn(x))
        return self.fc(x.mean(dim=(2, 3)))


# 5-joint chain skeleton
V = 5
A = np.zeros((V, V))
for i in range(V - 1):
    A[i, i + 1] = A[i + 1, i] = 1


def make_clips(n=64, T=12):
    """Action 0: joints sway along x; action 1: joints bob along y."""
    y = torch.randint(0, 2, (n,))
    t = torch.linspace(0, 2 * np.pi, T)
    base = torch.randn(n, 3, 1, V) * 0.3
    motion = torch.sin(t)[None, None, :, None] * torch.linspace(0.2, 1.0, V)[None, None, None, :]
    x = base.repeat(1, 1, T, 1)
    for i in range(n):
        x[i, int(y[i])] += motion[0, 0]
    return x + 0.05 * torch.randn_like(x), y


x, y = make_clips()

model = TinyMSG3D(A)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
err = None
try:
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err
assert model.gcn.PA.grad is None

torch.manual_seed(0)
fixed = TinyMSG3D(A, inplace_residual=False)
opt = torch.optim.Adam(fixed.parameters(), lr=1e-2)
for step in range(60):
    loss = F.cross_entropy(fixed(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
assert fixed.gcn.PA.grad is not None and fixed.gcn.mlp.layers[0].weight.grad.abs().sum() > 0
fixed.eval()
with torch.no_grad():
    acc = (fixed(x).argmax(1) == y).float().mean().item()
assert acc > 0.9, acc
print("buggy: %s..." % err[:60])
print("fixed: train accuracy %.2f" % acc)

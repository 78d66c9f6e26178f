"""
expect: none
dynamic: dismiss
source: https://github.com/kchengiva/Shift-GCN/issues/5

Skeleton-based action recognition with a parameter-free temporal shift (Shift-GCN's
"naive" temporal shift): channel groups of the feature map are moved forward or backward
in time before a point-wise convolution. The shift is written the way the maintainer
suggested, by creating `out = torch.zeros_like(x)` and filling slices of it with
`out[...] = x[...]` index assignments. These are in-place writes, but into a fresh buffer
that no recorded operation has saved, and x itself is only read; autograd records them as
slice copies and routes the gradient back to the right frames. The asserts compare the
gradient through this shift with an out-of-place version built from torch.cat and zero
padding, and check that the classifier trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def naive_temporal_shift(x, fold_div=8):
    n, c, t, v = x.size()
    fold = c // fold_div
    out = torch.zeros_like(x)
    out[:, :fold, :-1] = x[:, :fold, 1:]                  # shift left
    out[:, fold:2 * fold, :-2] = x[:, fold:2 * fold, 2:]  # shift left by two
    out[:, 2 * fold:3 * fold, 1:] = x[:, 2 * fold:3 * fold, :-1]  # shift right
    out[:, 3 * fold:4 * fold, 2:] = x[:, 3 * fold:4 * fold, :-2]  # shift right by two
    out[:, 4 * fold:] = x[:, 4 * fold:]                    # not shifted
    return out


def reference_shift(x, fold_div=8):
    n, c, t, v = x.size()
    fold = c // fold_div
    def move(chunk, k):
        pad = torch.zeros_like(chunk[:, :, :abs(k)])
        return torch.cat([chunk[:, :, k:], pad], 2) if k > 0 else torch.cat([pad, chunk[:, :, :k]], 2)
    parts = [move(x[:, :fold], 1), move(x[:, fold:2 * fold], 2),
             move(x[:, 2 * fold:3 * fold], -1), move(x[:, 3 * fold:4 * fold], -2), x[:, 4 * fold:]]
    return torch.cat(parts, dim=1)


class ShiftTCN(nn.Module):
    def __init__(self, in_channels=3, channels=16, n_classes=4, shift=naive_temporal_shift):
        super().__init__()
        self.embed = nn.Conv2d(in_channels, channels, 1)
        self.bn = nn.BatchNorm2d(channels)
        self.pointwise = nn.Conv2d(channels, channels, 1)
        self.fc = nn.Linear(channels, n_classes)
        self.shift = shift

    def forward(self, x):  # x: (batch, coords, frames, joints)
        h = F.relu(self.bn(self.embed(x)))
        h = F.relu(self.pointwise(self.shift(h)))
        return self.fc(h.mean(dim=(2, 3)))


torch.manual_seed(0)
torch.set_num_threads(1)
x = torch.randn(12, 3, 10, 5)
y = torch.randint(0, 4, (12,))

model = ShiftTCN()
ref = ShiftTCN(shift=reference_shift)
ref.load_state_dict(model.state_dict())
loss = F.cross_entropy(model(x), y)
loss_ref = F.cross_entropy(ref(x), y)
assert torch.allclose(loss, loss_ref)
g = torch.autograd.grad(loss, list(model.parameters()))
g_ref = torch.autograd.grad(loss_ref, list(ref.parameters()))
for a, b in zip(g, g_ref):
    assert torch.allclose(a, b, atol=1e-6)
assert model.embed.weight.requires_grad and g[0].abs().sum() > 0

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
first = None
for _ in range(150):
    loss = F.cross_entropy(model(x), y)
    first = loss.item() if first is None else first
    opt.zero_grad()
    loss.backward()
    opt.step()
assert loss.item() < 0.5 * first
print("shift-TCN loss %.3f -> %.3f" % (first, loss.item()))

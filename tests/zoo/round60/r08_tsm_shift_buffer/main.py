"""
expect: none
dynamic: dismiss
source: https://github.com/mit-han-lab/temporal-shift-module/blob/51b29f3354cfe128e50e25b4cdc401fed45d5f0e/ops/temporal_shift.py

The Temporal Shift Module gives a 2-D CNN temporal reasoning by moving a fraction of the channels
one frame forward and another fraction one frame backward before the first conv of each residual
block. The non-in-place path allocates out = torch.zeros_like(x) and fills it with slice
assignments (out[:, :-1, :fold] = x[:, 1:, :fold] and so on); the residual block around it also
uses ReLU(inplace=True) and "out += identity". These in-place writes look risky, but none of them
touch a tensor an earlier op saved for backward: the slice writes go into a fresh buffer (the copy
ops record their own backward), the in-place ReLU follows a BatchNorm that does not need its
output, and the residual "+=" edits a BatchNorm output. tsm.py holds the shift module and the block
and main.py trains a tiny TSM network on synthetic clips of a blob moving left or right, a task a
per-frame CNN with temporal averaging cannot solve because a clip and its reverse contain the same
frames. The asserts check that the shift's gradient matches a concatenation-based reference, that
the conv in front of the shift receives gradient, and that the TSM network learns the direction
while the same network without the shift stays at chance.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from tsm import BasicBlock, TemporalShift, make_temporal_shift

torch.manual_seed(0)
torch.set_num_threads(1)

T, HW = 4, 16


def make_clips(n, seed):
    g = torch.Generator().manual_seed(seed)
    clips = torch.zeros(n, T, 1, HW, HW)
    labels = torch.randint(0, 2, (n,), generator=g)
    for i in range(n):
        x0 = int(torch.randint(0, HW - 2 * T - 1, (1,), generator=g))
        y0 = int(torch.randint(2, HW - 4, (1,), generator=g))
        for t in range(T):
            x = x0 + 2 * t if labels[i] == 1 else x0 + 2 * (T - 1 - t)   # same frames, reversed order
            clips[i, t, 0, y0:y0 + 3, x:x + 3] = 1.0
    return clips.view(n * T, 1, HW, HW), labels


class TSMNet(nn.Module):
    def __init__(self, shift=True):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, 8, 3, stride=2, padding=1), nn.ReLU())
        blocks = [BasicBlock(8), BasicBlock(8)]
        if shift:
            blocks = make_temporal_shift(blocks, n_segment=T)
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(8, 2)

    def forward(self, frames):
        f = self.blocks(self.stem(frames)).mean(dim=(2, 3))      # per-frame features
        return self.fc(f.view(-1, T, f.shape[-1]).mean(1))        # average consensus over time


def reference_shift(x, n_segment, fold_div):
    nt, c, h, w = x.shape
    x = x.view(nt // n_segment, n_segment, c, h, w)
    fold = c // fold_div
    pad = torch.zeros_like(x[:, :1, :fold])
    left = torch.cat((x[:, 1:, :fold], pad), 1)
    right = torch.cat((pad, x[:, :-1, fold:2 * fold]), 1)
    return torch.cat((left, right, x[:, :, 2 * fold:]), 2).view(nt, c, h, w)


# gradient through the slice-assigned buffer equals the functional reference
x1 = torch.randn(2 * T, 8, 5, 5, requires_grad=True)
x2 = x1.detach().clone().requires_grad_()
w = torch.randn(2 * T, 8, 5, 5)
g1 = torch.autograd.grad((TemporalShift.shift(x1, T, 4) * w).sum(), x1)[0]
g2 = torch.autograd.grad((reference_shift(x2, T, 4) * w).sum(), x2)[0]
assert torch.allclose(g1, g2)

train_x, train_y = make_clips(128, 1)
test_x, test_y = make_clips(64, 2)


def train(shift):
    torch.manual_seed(3)
    net = TSMNet(shift)
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    for _ in range(80):
        opt.zero_grad()
        loss = F.cross_entropy(net(train_x), train_y)
        loss.backward()
        if shift:
            assert net.stem[0].weight.grad.abs().sum() > 0
        opt.step()
    net.eval()
    with torch.no_grad():
        return (net(test_x).argmax(1) == test_y).float().mean().item()


acc_tsm = train(shift=True)
acc_2d = train(shift=False)
assert acc_tsm >= 0.9, acc_tsm
assert acc_2d <= 0.65, acc_2d
print("ok: TSM shift trains through its buffer; direction accuracy", round(acc_2d, 2), "(no shift) vs", round(acc_tsm, 2))

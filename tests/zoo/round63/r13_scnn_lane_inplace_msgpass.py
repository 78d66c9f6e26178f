"""
expect: GL005 45
dynamic: confirm
source: https://github.com/Turoad/lanedet/blob/2c80bfe8847edb9b6841d05f2391549d39d60726/lanedet/models/aggregators/scnn.py

lanedet's SCNN aggregator implements spatial message passing for lane detection:
after x = x.clone(), it walks the feature map row by row (then column by column)
and does x[..., i:i+1, :].add_(F.relu(conv(x[..., i-1:i, :]))), i.e. each slice is
updated in place with a convolution of the previous slice. The convolution saves
its input, and that input is a view of the very tensor that the next add_ writes
into; all views share one version counter, so the first in-place add already
invalidates what the earlier convolution saved. Forward runs fine, and the error
only appears at loss.backward() ("one of the variables needed for gradient
computation has been modified by an inplace operation"), which is what lane
detection users hit with PyTorch >= 1.8 (other SCNN/RESA ports removed the add_
for this reason). This reduction keeps a tiny backbone, the four-direction message
passing written with one helper that does the in-place slice update, a lane
segmentation head and a BCE loss. The asserts catch the RuntimeError for the
in-place version; the out-of-place version (collect the slices in a list and
torch.cat them) backpropagates, gives the message-passing convs non-zero
gradients, and its loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SCNNAggregator(nn.Module):
    def __init__(self, ch=8, k=5, inplace=True):
        super().__init__()
        self.inplace = inplace
        self.conv_d = nn.Conv2d(ch, ch, (1, k), padding=(0, k // 2), bias=False)
        self.conv_u = nn.Conv2d(ch, ch, (1, k), padding=(0, k // 2), bias=False)
        self.conv_r = nn.Conv2d(ch, ch, (k, 1), padding=(k // 2, 0), bias=False)
        self.conv_l = nn.Conv2d(ch, ch, (k, 1), padding=(k // 2, 0), bias=False)

    def _pass_inplace(self, x, conv, dim, reverse):
        n = x.shape[dim]
        order = range(n - 2, -1, -1) if reverse else range(1, n)
        for i in order:
            src = i + 1 if reverse else i - 1
            x.narrow(dim, i, 1).add_(F.relu(conv(x.narrow(dim, src, 1))))
        return x

    def _pass_outofplace(self, x, conv, dim, reverse):
        slices = list(torch.unbind(x, dim=dim))
        slices = [s.unsqueeze(dim) for s in slices]
        if reverse:
            slices = slices[::-1]
        out = [slices[0]]
        for i in range(1, len(slices)):
            out.append(slices[i] + F.relu(conv(out[i - 1])))
        if reverse:
            out = out[::-1]
        return torch.cat(out, dim=dim)

    def forward(self, x):
        x = x.clone()
        step = self._pass_inplace if self.inplace else self._pass_outofplace
        x = step(x, self.conv_d, 2, False)
        x = step(x, self.conv_u, 2, True)
        x = step(x, self.conv_r, 3, False)
        x = step(x, self.conv_l, 3, True)
        return x


class LaneNet(nn.Module):
    def __init__(self, inplace):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.aggregator = SCNNAggregator(8, inplace=inplace)
        self.head = nn.Conv2d(8, 1, 1)

    def forward(self, img):
        return self.head(self.aggregator(self.backbone(img)))


def make_batch(n=4, h=12, w=16):
    img = torch.rand(n, 3, h, w) * 0.3
    target = torch.zeros(n, 1, h, w)
    for b in range(n):                                   # one slanted lane per image
        c0 = 3 + 2 * b
        for r in range(h):
            c = min(w - 1, c0 + r // 2)
            target[b, 0, r, c] = 1.0
            img[b, :, r, c] += 0.7
    return img, target


img, target = make_batch()

# --- the report: in-place message passing --------------------------------
model = LaneNet(inplace=True)
logits = model(img)                                  # forward is fine
loss = F.binary_cross_entropy_with_logits(logits, target)
try:
    loss.backward()
    raise AssertionError("expected the in-place error")
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e), str(e)

# --- fixed: out-of-place message passing ----------------------------------
model = LaneNet(inplace=False)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
losses = []
for it in range(40):
    loss = F.binary_cross_entropy_with_logits(model(img), target, pos_weight=torch.tensor(8.0))
    opt.zero_grad()
    loss.backward()
    if it == 0:
        for conv in (model.aggregator.conv_d, model.aggregator.conv_l):
            assert conv.weight.grad is not None and conv.weight.grad.abs().sum() > 0
    opt.step()
    losses.append(loss.item())
assert losses[-1] < 0.5 * losses[0], (losses[0], losses[-1])

print("r13 ok: in-place SCNN raises at backward; out-of-place version trains (%.3f -> %.3f)"
      % (losses[0], losses[-1]))

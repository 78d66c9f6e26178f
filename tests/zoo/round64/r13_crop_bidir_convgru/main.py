"""
expect: GL002 segmenter.py:46
dynamic: confirm
source: https://github.com/roserustowicz/crop-type-mapping/commit/021fe6f56e262fe42f9500b5c01a55c35cac5d20

crop-type-mapping segments crop types from satellite image time series
(Sentinel-1/2, Planet; Ghana / South Sudan fields). Its FCN_CRNN model runs a
UNet on every acquisition date and feeds the per-date feature maps to a
convolutional recurrent segmenter. For the bidirectional option the segmenter
built the reversed sequence with
torch.tensor(inputs.cpu().detach().numpy()[::-1].copy()).cuda(), i.e. through
NumPy, so the reversed branch was a fresh leaf with no history: the UNet that
produced `inputs` received no gradient from the backward-in-time half of the
model. Commit 021fe6f ("improved bidirectionality") replaced it with
torch.flip(inputs, dims=[1]). (The original also flipped axis 0, the batch;
this reduction flips time only, to isolate the gradient loss.) In the
reproduction a per-date conv encoder (stand-in for the UNet) feeds
segmenter.py. The asserts show that the reversed-direction state has no
gradient path to the encoder (autograd.grad returns None) when the reversal goes
through NumPy, while with torch.flip it does; the encoder still trains in both
variants through the forward direction only, which is why nothing crashed.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from segmenter import CGRUSegmenter

torch.manual_seed(0)
torch.set_num_threads(1)

B, T, BANDS, H, W, FEAT, HID, N_CROPS = 4, 5, 4, 8, 8, 6, 5, 3


class FieldModel(nn.Module):
    def __init__(self, flip_in_numpy):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(BANDS, FEAT, 3, padding=1), nn.ReLU())
        self.segmenter = CGRUSegmenter(FEAT, HID, N_CROPS, bidirectional=True,
                                       flip_in_numpy=flip_in_numpy)

    def forward(self, x):  # x: (B, T, bands, H, W)
        b, t = x.shape[:2]
        feats = self.encoder(x.reshape(b * t, BANDS, H, W)).reshape(b, t, FEAT, H, W)
        return self.segmenter(feats)


def batch():
    x = torch.randn(B, T, BANDS, H, W)
    y = torch.randint(0, N_CROPS, (B, H, W))
    return x, y


def rev_path_grad(model, x):
    model(x)
    rev = model.segmenter.last_rev_state
    if not rev.requires_grad:
        return None
    g = torch.autograd.grad(rev.sum(), model.encoder[0].weight, allow_unused=True)[0]
    return g


def train(model, steps=40):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = batch()
    first = None
    for _ in range(steps):
        loss = F.nll_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        first = loss.item() if first is None else first
    return first, loss.item()


x, _ = batch()

torch.manual_seed(1)
bug = FieldModel(flip_in_numpy=True)
assert rev_path_grad(bug, x) is None  # backward-in-time half is cut from the encoder

torch.manual_seed(1)
fix = FieldModel(flip_in_numpy=False)
g = rev_path_grad(fix, x)
assert g is not None and g.abs().sum() > 0

# the buggy model still "trains" (through the forward direction), which hides the cut
b0, b1 = train(bug)
f0, f1 = train(fix)
assert b1 < b0 and f1 < f0
print("numpy reversal: reverse branch cut from encoder; torch.flip: connected "
      "(loss %.3f -> %.3f)" % (f0, f1))

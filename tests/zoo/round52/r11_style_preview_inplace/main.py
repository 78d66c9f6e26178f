"""expect: GL005 preview.py:14
dynamic: confirm
source: https://github.com/halahup/NeuralStyleTransfer/issues/1

Gatys-style transfer: a Gaussian-noise canvas is the only thing the optimiser holds, and it is pushed
through a frozen convolutional feature extractor to match content features and style Gram matrices. Every
few iterations the loop writes a preview between building the loss and calling backward(). On CPU,
`canvas.cpu().detach()` shares storage and the version counter with the canvas, the one-image grid is a
squeeze view, and the preview scales it to 0..255 with `mul_`/`add_`/`clamp_` in place. The first
convolution saved the canvas for its backward, so backward() raises "modified by an inplace operation"
(and the canvas itself has been rescaled). The asserts catch that RuntimeError on the first preview step
and show that a preview built from a clone leaves the canvas intact and lets the style loss fall.
"""
import torch
import torch.nn as nn

from preview import snapshot, snapshot_copy

torch.manual_seed(0)
torch.set_num_threads(1)


class FrozenFeatures(nn.Module):
    def __init__(self):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.block2 = nn.Sequential(nn.AvgPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())
        for p in self.parameters():
            p.requires_grad = False

    def forward(self, x):
        f1 = self.block1(x)
        f2 = self.block2(f1)
        return f1, f2


def gram(feat):
    c = feat.shape[1]
    flat = feat.reshape(c, -1)
    return flat @ flat.t() / flat.shape[1]


def style_transfer(save_fn, iters=30, save_every=10):
    net = FrozenFeatures().eval()
    content = torch.rand(1, 3, 16, 16)
    style = torch.rand(1, 3, 16, 16)
    with torch.no_grad():
        content_target = net(content)[1]
        style_targets = [gram(f) for f in net(style)]
    canvas = torch.randn(1, 3, 16, 16, requires_grad=True)
    opt = torch.optim.Adam([canvas], lr=0.05)
    frames, history = [], []
    for it in range(iters):
        opt.zero_grad()
        f1, f2 = net(canvas)
        c_loss = (f2 - content_target).pow(2).mean()
        s_loss = sum((gram(f) - g).pow(2).sum() for f, g in zip((f1, f2), style_targets))
        loss = c_loss + 10.0 * s_loss
        if it % save_every == 0:
            save_fn(canvas, frames)
        loss.backward()
        opt.step()
        history.append(s_loss.item())
    return canvas, frames, history


# Buggy preview: the in-place scaling hits the canvas that the first convolution saved.
try:
    style_transfer(snapshot)
    raise AssertionError("expected the in-place preview to break backward()")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)

# Copying preview: nothing saved for backward is touched, the canvas trains.
canvas, frames, history = style_transfer(snapshot_copy)
assert len(frames) == 3 and frames[0].dtype == torch.uint8
assert history[-1] < history[0]
print("ok: in-place preview breaks backward; copied preview trains (style loss %.4f -> %.4f)" % (history[0], history[-1]))

"""
expect: GL005 blocks.py:39
dynamic: confirm
source: https://github.com/fepegar/unet/issues/36

Report on a medical-imaging U-Net package: with residual=True, loss.backward() fails on torch 2
with "modified by an inplace operation". The encoding block adds the 1x1 residual projection
with `x += connection`, where x is the output of the second conv block's ReLU, which ReLU saved
for its backward. This program builds a small residual U-Net for 3-class segmentation of random
slices; the asserts show the in-place add raises the version-counter error on backward, and the
out-of-place variant `x = x + connection` trains (weights change, loss finite).
"""
import torch
import torch.nn.functional as F
from blocks import TinyUNet

torch.manual_seed(0)
torch.set_num_threads(1)

img = torch.randn(2, 1, 16, 16)
mask = torch.randint(0, 3, (2, 16, 16))

net = TinyUNet()
err = None
try:
    F.cross_entropy(net(img), mask).backward()
except RuntimeError as e:
    err = str(e)
assert err is not None and "inplace operation" in err, err

torch.manual_seed(0)
fixed = TinyUNet(out_of_place=True)
opt = torch.optim.SGD(fixed.parameters(), lr=0.1)
w0 = fixed.enc1.conv2.block[0].weight.detach().clone()
for _ in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(fixed(img), mask)
    loss.backward()
    opt.step()
assert torch.isfinite(loss)
assert not torch.equal(w0, fixed.enc1.conv2.block[0].weight)
print("in-place residual raised:", err.split("\n")[0][:80])
print("ok")

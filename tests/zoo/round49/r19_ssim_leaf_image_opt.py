"""
expect: none
dynamic: dismiss
source: https://github.com/Po-Hsun-Su/pytorch-ssim/issues/44

The SSIM-maximization demo of a differentiable SSIM loss, used to check that the loss can drive image restoration:
a target image is fixed, a random image is wrapped with `Variable(..., requires_grad=True)` and optimized directly
with Adam until its SSIM to the target passes a threshold, and the loop condition reads the SSIM as a Python number.
The linked issue asks why the second image gets requires_grad=True while the first does not. It is correct: the
wrapped tensor is a fresh leaf and is the very thing the optimizer updates, the target needs no gradient, and the
Python number is only used to decide when to stop, never fed back into the loss. The asserts show the leaf gets
gradients, the target does not, and the SSIM rises past the threshold.
"""
import torch
import torch.nn.functional as F
from torch.autograd import Variable

torch.manual_seed(0)
torch.set_num_threads(1)


def gaussian_window(size=7, sigma=1.5, channels=3):
    coords = torch.arange(size, dtype=torch.float32) - size // 2
    g = torch.exp(-coords ** 2 / (2 * sigma ** 2))
    g = (g / g.sum()).unsqueeze(1)
    w2d = (g @ g.t()).expand(channels, 1, size, size).contiguous()
    return w2d


def ssim(img1, img2, window, c1=0.01 ** 2, c2=0.03 ** 2):
    ch = img1.shape[1]
    pad = window.shape[-1] // 2
    mu1 = F.conv2d(img1, window, padding=pad, groups=ch)
    mu2 = F.conv2d(img2, window, padding=pad, groups=ch)
    s11 = F.conv2d(img1 * img1, window, padding=pad, groups=ch) - mu1 ** 2
    s22 = F.conv2d(img2 * img2, window, padding=pad, groups=ch) - mu2 ** 2
    s12 = F.conv2d(img1 * img2, window, padding=pad, groups=ch) - mu1 * mu2
    ssim_map = ((2 * mu1 * mu2 + c1) * (2 * s12 + c2)) / ((mu1 ** 2 + mu2 ** 2 + c1) * (s11 + s22 + c2))
    return ssim_map.mean()


window = gaussian_window()
img1 = Variable(torch.rand(1, 3, 24, 24), requires_grad=False)
img2 = Variable(torch.rand(img1.size()), requires_grad=True)

ssim_value = ssim(img1, img2, window).item()
start = ssim_value
optimizer = torch.optim.Adam([img2], lr=0.05)
steps = 0
while ssim_value < 0.9 and steps < 500:
    optimizer.zero_grad()
    ssim_out = -ssim(img1, img2, window)
    ssim_value = -ssim_out.item()
    ssim_out.backward()
    assert img2.grad is not None and img2.grad.abs().sum() > 0
    optimizer.step()
    steps += 1
assert img1.grad is None
assert ssim_value >= 0.9 > start
print("ssim %.3f -> %.3f in %d steps" % (start, ssim_value, steps))

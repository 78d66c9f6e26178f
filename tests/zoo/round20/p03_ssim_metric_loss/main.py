"""
expect: GL001 metrics.py:9
dynamic: confirm
source: https://github.com/Project-MONAI/MONAI/pull/5686

A medical-imaging toolkit rewrote its SSIM loss on top of its SSIM metric; the metric's base
class detaches every input before computing, so the loss came back without a gradient (the PR
fixed it by calling the metric's inner computation directly). In a training loop that sums an
L1 term and the SSIM term, the SSIM term silently adds a number but no gradient. metrics.py
reproduces the base class and metric, main.py the loss and a small denoiser; the asserts show
the parameter gradients are identical with SSIM weight 1 and 0, and differ once the loss calls
the inner computation.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from metrics import SSIMMetric

torch.manual_seed(0)
torch.set_num_threads(1)


class SSIMLoss(nn.Module):
    def __init__(self, data_range=1.0, bypass_base=False):
        super().__init__()
        self.metric = SSIMMetric(data_range=data_range)
        self.bypass_base = bypass_base

    def forward(self, x, y):
        if self.bypass_base:      # the fix: no detaching wrapper
            ssim = self.metric._compute_tensor(x, y)
        else:                     # as reported: goes through IterationMetric.__call__
            ssim = self.metric(x, y)
        return 1.0 - ssim.mean()


def make_denoiser():
    torch.manual_seed(5)
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))


def grads(ssim_weight, bypass_base=False):
    net = make_denoiser()
    ssim_loss = SSIMLoss(bypass_base=bypass_base)
    clean = torch.rand(4, 1, 16, 16)
    noisy = clean + 0.1 * torch.randn_like(clean)
    out = net(noisy)
    s = ssim_loss(out, clean)
    loss = F.l1_loss(out, clean) + ssim_weight * s
    loss.backward()
    return s, [p.grad.clone() for p in net.parameters()]


torch.manual_seed(1)
s1, g1 = grads(1.0)
torch.manual_seed(1)
s0, g0 = grads(0.0)
print(f"reported: ssim term={s1.item():.4f} requires_grad={s1.requires_grad}")
assert s1.item() > 0.01 and not s1.requires_grad
assert all(torch.equal(a, b) for a, b in zip(g1, g0)), "SSIM weight has no effect on the gradient"

torch.manual_seed(1)
sf, gf = grads(1.0, bypass_base=True)
diff = max((a - b).abs().max().item() for a, b in zip(gf, g0))
print(f"fixed: requires_grad={sf.requires_grad} max grad change {diff:.2e}")
assert sf.requires_grad and diff > 1e-5
print("OK")

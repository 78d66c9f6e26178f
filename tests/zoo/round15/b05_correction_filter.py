"""
expect: GL003 57
dynamic: confirm
source: https://github.com/shadyabh/Correction-Filter/issues/1

A user plugged an RCAN super-resolution model behind the correction-filter code and hit
"element 0 of tensors does not require grad"; the author replied that the SR network must let
gradients flow back to its input, because the filter is learned through it. This program rebuilds
that setup with the SR pass wrapped in `torch.no_grad()` (as is common for a frozen network) and the
usual quick fix of switching `requires_grad_()` on its output. The error disappears, but the
correction filter's weight.grad stays None and its weights never change; running the frozen SR net
with grad enabled (parameters frozen, graph kept) trains the filter.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinySR(nn.Module):
    """Frozen 2x super-resolution network (stands in for RCAN / DBPN)."""

    def __init__(self):
        super().__init__()
        self.body = nn.Conv2d(1, 4, 3, padding=1)
        self.shuffle = nn.PixelShuffle(2)
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        return self.shuffle(self.body(x))


class CorrectionFilter(nn.Module):
    def __init__(self):
        super().__init__()
        self.kernel = nn.Conv2d(1, 1, 5, padding=2, bias=False)
        nn.init.dirac_(self.kernel.weight)

    def forward(self, lr_image):
        return self.kernel(lr_image)


class FilterLearner:
    def __init__(self, sr_model, grad_through_sr=False):
        self.sr = sr_model.eval()
        self.filter = CorrectionFilter()
        self.grad_through_sr = grad_through_sr
        self.opt = torch.optim.Adam(self.filter.parameters(), lr=1e-2)

    def super_resolve(self, corrected):
        if self.grad_through_sr:
            return self.sr(corrected)
        with torch.no_grad():
            sr_out = self.sr(corrected)
        sr_out.requires_grad_()
        return sr_out

    def step(self, lr_image, hr_target):
        self.opt.zero_grad()
        sr_out = self.super_resolve(self.filter(lr_image))
        loss = F.mse_loss(sr_out, hr_target)
        loss.backward()
        grad = self.filter.kernel.weight.grad
        self.opt.step()
        return loss.detach(), grad


sr = TinySR()
lr_image = torch.randn(2, 1, 8, 8)
hr_target = torch.randn(2, 1, 16, 16)

learner = FilterLearner(sr)
k0 = learner.filter.kernel.weight.detach().clone()
for _ in range(4):
    loss, grad = learner.step(lr_image, hr_target)
    assert grad is None, "filter gets no gradient through the no-grad SR pass"
assert torch.equal(k0, learner.filter.kernel.weight.detach())

fixed = FilterLearner(sr, grad_through_sr=True)
_, grad = fixed.step(lr_image, hr_target)
assert grad is not None and grad.abs().sum() > 0
assert not torch.equal(k0, fixed.filter.kernel.weight.detach())
assert all(p.grad is None for p in sr.parameters()), "SR network itself stays frozen"
print("ok: requires_grad_ on the no-grad SR output hides that the filter never learns")

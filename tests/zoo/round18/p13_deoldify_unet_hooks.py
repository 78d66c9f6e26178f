"""
expect: GL001 31
dynamic: confirm
source: https://github.com/jantic/DeOldify/issues/116

The report: DeOldify's DynamicUnetWide builds its skip connections with fastai's
`hook_outputs(...)`, whose `detach` flag defaults to True, so the encoder activations
stored by the forward hooks and concatenated into the decoder are detached - backprop
"stops at the skip-connections". The maintainer confirmed it (the backbone still learns,
but only through the middle path). This program rebuilds a small colourisation U-Net
(L channel in, ab channels out) whose decoder reads the encoder features captured by
forward hooks that store `output.detach()`. The asserts show the encoder gradients are
wrong: with detached hooks the reconstruction gradient reaching the early encoder block is
only the part flowing through the bottleneck, and it differs from the gradient of the same
network with attached skip features; a loss that only sees the skip path gives the encoder
no gradient at all.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Hook:
    def __init__(self, module, detach=True):
        self.detach, self.stored = detach, None
        self.handle = module.register_forward_hook(self.hook_fn)

    def hook_fn(self, module, inp, out):
        self.stored = out.detach() if self.detach else out


def hook_outputs(modules, detach=True):
    return [Hook(m, detach) for m in modules]


class UnetBlock(nn.Module):
    def __init__(self, up_in, skip_in, out, hook):
        super().__init__()
        self.hook = hook
        self.shuf = nn.ConvTranspose2d(up_in, up_in // 2, 2, stride=2)
        self.bn = nn.BatchNorm2d(skip_in)
        self.conv = nn.Conv2d(up_in // 2 + skip_in, out, 3, padding=1)

    def forward(self, up_in):
        s = self.bn(self.hook.stored)
        return F.relu(self.conv(torch.cat([self.shuf(up_in), s], dim=1)))


class DynamicUnetWide(nn.Module):
    def __init__(self, detach_hooks=True):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU())
        self.enc2 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.enc3 = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())
        self.sfs = hook_outputs([self.enc1, self.enc2], detach=detach_hooks)
        self.middle_conv = nn.Sequential(nn.Conv2d(32, 32, 3, padding=1), nn.ReLU())
        self.up2 = UnetBlock(32, 16, 16, self.sfs[1])
        self.up1 = UnetBlock(16, 8, 8, self.sfs[0])
        self.out = nn.Conv2d(8, 2, 1)

    def forward(self, L):
        x = self.middle_conv(self.enc3(self.enc2(self.enc1(L))))
        return torch.tanh(self.out(self.up1(self.up2(x))))


def enc1_grad(model, L, ab, skip_only=False):
    model.zero_grad()
    pred = model(L)
    loss = F.l1_loss(pred, ab)
    if skip_only:                                   # a term that only sees the skip features
        loss = model.up1.bn(model.sfs[0].stored).pow(2).mean()
    loss.backward()
    g = model.enc1[0].weight.grad
    return None if g is None else g.clone()


if __name__ == "__main__":
    L, ab = torch.rand(4, 1, 16, 16), torch.rand(4, 2, 16, 16) * 2 - 1
    bug = DynamicUnetWide(detach_hooks=True)
    ref = DynamicUnetWide(detach_hooks=False)
    ref.load_state_dict(bug.state_dict())

    g_bug, g_ref = enc1_grad(bug, L, ab), enc1_grad(ref, L, ab)
    rel = (g_bug - g_ref).norm() / g_ref.norm()
    assert rel > 0.1, rel                            # skip-path contribution is missing
    assert g_bug.abs().sum() > 0                     # ...only the bottleneck path remains
    assert enc1_grad(bug, L, ab, skip_only=True) is None
    assert enc1_grad(ref, L, ab, skip_only=True).abs().sum() > 0
    print(f"OK: enc1 grad norm {g_bug.norm():.2e} (detached hooks) vs {g_ref.norm():.2e}; skip-only loss gives none")

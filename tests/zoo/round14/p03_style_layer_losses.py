"""
expect: GL002 59
dynamic: confirm
source: https://github.com/leongatys/PytorchNeuralStyleTransfer/issues/16

In the report, summing the per-layer style/content losses with torch.sum over a Python list
fails with an error telling the user to call tensor.detach().numpy(); the user asks whether
that route is equivalent. This program rebuilds the neural-style loop with that route: each
layer loss is turned into a NumPy number and the list is rebuilt with
torch.tensor(..., requires_grad=True) so backward() runs. The asserts show the optimized
image's .grad stays None and its pixels do not change after the step, while the
torch.stack version the thread settled on does update the image.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


def gram(feat):
    b, c, h, w = feat.shape
    f = feat.view(c, h * w)
    return f @ f.t() / (c * h * w)


class TinyVGG(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.ReLU()),
        ])
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        outs = []
        for blk in self.blocks:
            x = blk(x)
            outs.append(x)
        return outs


class StyleObjective:
    def __init__(self, net, style_img, content_img):
        self.net = net
        self.style_targets = [gram(f) for f in net(style_img)]
        self.content_target = net(content_img)[-1]

    def layer_losses(self, img):
        feats = self.net(img)
        losses = [((gram(f) - t) ** 2).sum() for f, t in zip(feats, self.style_targets)]
        losses.append(((feats[-1] - self.content_target) ** 2).mean())
        return losses

    def total_numpy(self, img):
        parts = [l.detach().numpy() for l in self.layer_losses(img)]
        return torch.tensor(np.array(parts), requires_grad=True).sum()

    def total_stacked(self, img):
        return torch.stack(self.layer_losses(img)).sum()


net = TinyVGG()
style, content = torch.rand(1, 3, 16, 16), torch.rand(1, 3, 16, 16)
objective = StyleObjective(net, style, content)

img = content.clone().requires_grad_()
opt = torch.optim.Adam([img], lr=0.05)
start = img.detach().clone()
for _ in range(3):
    opt.zero_grad()
    loss = objective.total_numpy(img)
    loss.backward()
    opt.step()
assert img.grad is None
assert torch.equal(img.detach(), start)

img2 = content.clone().requires_grad_()
opt2 = torch.optim.Adam([img2], lr=0.05)
opt2.zero_grad()
objective.total_stacked(img2).backward()
opt2.step()
assert img2.grad is not None and img2.grad.abs().sum() > 0
assert not torch.equal(img2.detach(), start)
print("ok: numpy-rebuilt loss leaves the image untouched; stacked loss updates it")

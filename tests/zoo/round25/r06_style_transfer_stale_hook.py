"""
expect: GL004 75
dynamic: confirm
source: https://github.com/fastai/fastai/pull/761

The PR fixed the style-transfer notebook, where features kept by forward hooks
from an earlier pass were reused and backward failed with "backward through the
graph a second time" (fixed there by re-creating the hooks). Here the content target
is taken from the hook during the first pass over the image being optimised and kept
without a detach; retain_graph=True in the optimisation loop keeps that first graph
alive. The asserts show the old graph is still attached to the target after many
steps and that the image gradient differs from the one with a detached target.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SaveFeatures:
    def __init__(self, module):
        self.features = None
        self.hook = module.register_forward_hook(self.hook_fn)

    def hook_fn(self, module, inp, out):
        self.features = out

    def remove(self):
        self.hook.remove()


def gram(f):
    b, c, h, w = f.shape
    f = f.view(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


features = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
)
for p in features.parameters():
    p.requires_grad_(False)

MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)
content = torch.rand(1, 3, 16, 16)
style = torch.rand(1, 3, 16, 16)


class StyleTransfer:
    def __init__(self, detach_target):
        self.sf = SaveFeatures(features[1])
        with torch.no_grad():
            features((style - MEAN) / STD)
            self.style_gram = gram(self.sf.features)
        self.img = (content + 0.1 * torch.randn_like(content)).requires_grad_(True)
        self.opt = torch.optim.Adam([self.img], lr=0.05)
        self.detach_target = detach_target
        self.content_target = None

    def step(self):
        features((self.img - MEAN) / STD)
        feat = self.sf.features
        if self.content_target is None:
            self.content_target = feat.detach() if self.detach_target else feat
        loss = F.mse_loss(feat, self.content_target) + 10.0 * F.mse_loss(gram(feat), self.style_gram)
        self.opt.zero_grad()
        if self.detach_target:
            loss.backward()
        else:
            loss.backward(retain_graph=True)
        self.opt.step()
        return self.img.grad.clone()


stale = StyleTransfer(detach_target=False)
clean = StyleTransfer(detach_target=True)
clean.img.data.copy_(stale.img.data)
for _ in range(6):
    g_stale = stale.step()
    g_clean = clean.step()
    clean.img.data.copy_(stale.img.data)

# the target from the first pass still carries its graph after six steps
assert stale.content_target.grad_fn is not None
assert clean.content_target.grad_fn is None
# and gradient leaks through it into the image, so the update is not the intended one
assert not torch.allclose(g_stale, g_clean)
print("ok", float((g_stale - g_clean).abs().max()))

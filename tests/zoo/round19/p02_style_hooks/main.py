"""
expect: GL001 hooks.py:12
dynamic: confirm
source: https://github.com/fastai/fastai/pull/1103

The PR adds a `detach` flag to fastai's hook helpers because style transfer needs the hooked
activations with their history: the helpers stored `output.detach()` by default, so a perceptual
/ style loss computed from hooked features of a frozen loss network is built wholly from cut
values and never reaches the image transformer. This program trains a small transformer net
with a content + Gram-style loss read from forward hooks on a frozen VGG-like net (plus a small
pixel term, so training runs without error). The asserts show the style/content terms carry no
graph, the transformer's gradient is identical whatever the style weight, and with detach=False
the same loss does reach the transformer.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from hooks import HookOutputs

torch.manual_seed(0)

loss_net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                         nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())
for p in loss_net.parameters():
    p.requires_grad_(False)

transformer = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 3, padding=1))
style_image = torch.rand(1, 3, 16, 16)
content = torch.rand(4, 3, 16, 16)


def gram(f):
    b, c, h, w = f.shape
    f = f.view(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


def perceptual_loss(hooks, out, style_weight):
    loss_net(style_image)
    style_feats = [gram(f) for f in hooks.stored]
    loss_net(content)
    content_feats = hooks.stored
    loss_net(out)
    out_feats = hooks.stored
    content_loss = F.mse_loss(out_feats[1], content_feats[1])
    style_loss = sum(F.mse_loss(gram(o), s.expand_as(gram(o))) for o, s in zip(out_feats, style_feats))
    return content_loss + style_weight * style_loss


hooks = HookOutputs([loss_net[1], loss_net[3]])
opt = torch.optim.Adam(transformer.parameters(), lr=1e-3)
for step in range(5):
    out = transformer(content)
    feat_loss = perceptual_loss(hooks, out, style_weight=1e4)
    assert not feat_loss.requires_grad          # the whole perceptual term is cut
    loss = feat_loss + 0.1 * F.l1_loss(out, content)
    opt.zero_grad()
    loss.backward()
    opt.step()

def grad_of_transformer(h, style_weight):
    out = transformer(content)
    loss = perceptual_loss(h, out, style_weight) + 0.1 * F.l1_loss(out, content)
    return torch.cat([g.flatten() for g in torch.autograd.grad(loss, list(transformer.parameters()))])

assert torch.allclose(grad_of_transformer(hooks, 1e4), grad_of_transformer(hooks, 0.0))
hooks.remove()

fixed = HookOutputs([loss_net[1], loss_net[3]], detach=False)
assert not torch.allclose(grad_of_transformer(fixed, 1e4), grad_of_transformer(fixed, 0.0))
fixed.remove()
print("p02 ok: hooked perceptual/style loss never reaches the transformer")

"""
expect: GL004 62
dynamic: confirm
source: https://github.com/gordicaleksa/pytorch-neural-style-transfer/issues/8

In an issue on a neural style transfer repo, a user says his own implementation only
ran after adding retain_graph=True to loss.backward(). The cause is target content
features and Gram matrices computed once from a feature net that still tracks
gradients, without detach: every iteration's backward runs back into that one-time
target graph, which must then be kept alive. Here the feature net's weights pick up
gradient on every step, and the same loop without retain_graph fails on step 2. The
fixed variant (targets detached) needs no retain_graph and still stylises the image.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class FeatureNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, padding=1)
        self.c2 = nn.Conv2d(8, 8, 3, padding=1)

    def forward(self, x):
        f1 = F.relu(self.c1(x))
        f2 = F.relu(self.c2(f1))
        return [f1, f2]


def gram(f):
    b, c, h, w = f.shape
    f = f.view(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


class NeuralStyle:
    def __init__(self, net, content_img, style_img, detach_targets=False):
        self.net = net
        content_feats = net(content_img)
        style_feats = net(style_img)
        self.content_target = content_feats[1]
        self.style_targets = [gram(f) for f in style_feats]
        if detach_targets:
            self.content_target = self.content_target.detach()
            self.style_targets = [g.detach() for g in self.style_targets]

    def loss(self, img):
        feats = self.net(img)
        c = F.mse_loss(feats[1], self.content_target)
        s = sum(F.mse_loss(gram(f), g) for f, g in zip(feats, self.style_targets))
        return c + 1e3 * s

    def run(self, img, steps, retain=True):
        opt = torch.optim.Adam([img], lr=0.05)
        for _ in range(steps):
            opt.zero_grad()
            loss = self.loss(img)
            loss.backward(retain_graph=retain)
            opt.step()
        return img


content = torch.rand(1, 3, 16, 16)
style = torch.rand(1, 3, 16, 16)
net = FeatureNet()

# buggy run: the one-time target graph is revisited every step
img = content.clone().requires_grad_(True)
ns = NeuralStyle(net, content, style)
ns.run(img, steps=1)
g1 = net.c1.weight.grad.abs().sum().item()
ns.run(img, steps=3)
g4 = net.c1.weight.grad.abs().sum().item()
assert ns.content_target.grad_fn is not None
assert g1 > 0 and g4 > g1, "net grads keep accumulating through the retained target graph"

# same loop without retain_graph breaks on the second step
failed = False
try:
    NeuralStyle(net, content, style).run(content.clone().requires_grad_(True), 2, retain=False)
except RuntimeError as err:
    failed = "second time" in str(err)
assert failed

# fixed: detached targets, no retain_graph, feature net never touched
net.zero_grad(set_to_none=True)
ok = NeuralStyle(net, content, style, detach_targets=True)
img2 = ok.run(content.clone().requires_grad_(True), 4, retain=False)
assert ok.content_target.grad_fn is None
assert not torch.equal(img2, content)
print("ok: un-detached targets force retain_graph and drag the feature net into every step")

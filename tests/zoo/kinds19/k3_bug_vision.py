"""
expect: GL005 52
dynamic: confirm
source: kinds check 19, kind 3 (written for this check)

A hand-written SAM optimizer (`SharpnessAware`) moves each weight to the ascent
point in `climb()` with in-place edits under `torch.no_grad()`. The training step
reuses the first loss's graph: it calls `climb()` between `loss.backward(retain_graph=True)`
and a second `loss.backward()`, so the second backward meets weights the graph saved
but that were edited in place, and raises. The asserts check that error, and that a
fresh forward at the perturbed point (the SAM recipe) trains fine.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SharpnessAware(torch.optim.Optimizer):
    def __init__(self, params, base_cls=torch.optim.SGD, rho=0.05, **kw):
        super().__init__(params, dict(rho=rho, **kw))
        self.inner = base_cls(self.param_groups, **kw)

    @torch.no_grad()
    def climb(self):
        norm = torch.norm(torch.stack([p.grad.norm() for g in self.param_groups
                                       for p in g["params"] if p.grad is not None]))
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                e = p.grad * group["rho"] / (norm + 1e-12)
                p.add_(e)
                self.state[p]["e"] = e

    @torch.no_grad()
    def descend(self):
        for group in self.param_groups:
            for p in group["params"]:
                if "e" in self.state[p]:
                    p.sub_(self.state[p].pop("e"))
        self.inner.step()


def make_cnn():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1),
                         nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))


def sam_step_reusing_graph(net, opt, images, labels):
    loss = F.cross_entropy(net(images), labels)
    loss.backward(retain_graph=True)
    opt.climb()
    opt.zero_grad()
    loss.backward()
    opt.descend()
    opt.zero_grad()


def sam_step(net, opt, images, labels):
    F.cross_entropy(net(images), labels).backward()
    opt.climb()
    opt.zero_grad()
    F.cross_entropy(net(images), labels).backward()
    opt.descend()
    opt.zero_grad()


torch.manual_seed(6)
images, labels = torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))
net = make_cnn()
opt = SharpnessAware(net.parameters(), lr=0.1, momentum=0.9)
try:
    sam_step_reusing_graph(net, opt, images, labels)
    raise AssertionError("second backward should raise")
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e), e

net = make_cnn()
opt = SharpnessAware(net.parameters(), lr=0.1, momentum=0.9)
before = [p.clone() for p in net.parameters()]
sam_step(net, opt, images, labels)
assert any(not torch.equal(a, b) for a, b in zip(before, net.parameters()))
print("k3_bug_vision: climb() between two backwards through one graph raises")

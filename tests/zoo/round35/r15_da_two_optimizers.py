"""
expect: GL005 56
dynamic: confirm
source: https://github.com/Gorilla-Lab-SCUT/MultiClassDA/issues/2

In the SymmNets domain-adaptation solver the classifier loss is backpropagated
with retain_graph=True, the classifier optimizer steps, and only then the
feature-extractor loss, which runs through the same classifier forward, is
backpropagated. optimizer.step() edits the classifier weight in place, and
that weight was saved by the shared forward to compute the gradient for the
feature extractor. The solver class below keeps that order; the asserts
show the second backward fails with the in-place version error, and that
the reported fix (both backwards before either step) trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Solver:
    def __init__(self, fix_order=False):
        self.G = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 16))
        self.C = nn.Linear(16, 4)
        self.opt_g = torch.optim.SGD(self.G.parameters(), lr=0.1)
        self.opt_c = torch.optim.SGD(self.C.parameters(), lr=0.1)
        self.fix_order = fix_order

    def losses(self, xs, ys, xt):
        feat_s, feat_t = self.G(xs), self.G(xt)
        logit_s, logit_t = self.C(feat_s), self.C(feat_t)
        loss_c = F.cross_entropy(logit_s, ys)
        p_t = F.softmax(logit_t, dim=1)
        # feature extractor: source task + confusion on target predictions
        loss_g = F.cross_entropy(logit_s, ys) - 0.1 * (p_t * p_t.clamp_min(1e-6).log()).sum(1).mean()
        return loss_c, loss_g

    def update(self, xs, ys, xt):
        loss_c, loss_g = self.losses(xs, ys, xt)
        if self.fix_order:
            self.opt_c.zero_grad()
            loss_c.backward(retain_graph=True)
            grads_c = [p.grad.clone() for p in self.C.parameters()]
            self.opt_g.zero_grad()
            self.opt_c.zero_grad()
            loss_g.backward()
            for p, g in zip(self.C.parameters(), grads_c):
                p.grad = g
            self.opt_c.step()
            self.opt_g.step()
            return loss_c.item()
        self.opt_c.zero_grad()
        loss_c.backward(retain_graph=True)
        self.opt_c.step()
        self.opt_g.zero_grad()
        loss_g.backward()
        self.opt_g.step()
        return loss_c.item()


xs = torch.randn(32, 10)
ys = (xs[:, 0] > 0).long() + 2 * (xs[:, 1] > 0).long()
xt = torch.randn(32, 10) + 0.5

buggy = Solver()
error = None
try:
    buggy.update(xs, ys, xt)
except RuntimeError as e:
    error = str(e)
print("buggy order:", error[:90] if error else "no error")
assert error is not None and "modified by an inplace operation" in error

fixed = Solver(fix_order=True)
first = fixed.update(xs, ys, xt)
for _ in range(30):
    last = fixed.update(xs, ys, xt)
print("fixed order loss", first, "->", last)
assert last < first
print("confirmed: the classifier step edits a weight the second backward needs")

"""
expect: GL001 criteria.py:11
dynamic: confirm
source: https://github.com/FasterAI-Labs/fasterai/pull/6

In a model-compression library, a callback adds a "grouped weight decay" term to the loss after
each step; the term is built from the same importance-scoring object the pruner uses, whose
__call__ is decorated with @torch.no_grad(). The regulariser therefore adds a number to the loss
but no gradient, so it never shrinks any filter; the fix removed the decorator and computed the
norm on the weights directly. Here criteria.py holds the decorated scorer and main.py the small
callback-driven trainer; the asserts show the conv gradients are identical with wd=0.01 and
wd=0 while the loss value differs, and that the direct computation changes them.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from criteria import large_final, filter_dims

torch.manual_seed(0)
torch.set_num_threads(1)


class RegularizationCallback:
    "Grouped weight decay on every Conv2d, added after the loss is computed."
    def __init__(self, wd=0.01, direct=False):
        self.wd, self.direct = wd, direct

    def get_norm(self, model):
        terms = []
        for m in model.modules():
            if isinstance(m, nn.Conv2d):
                if self.direct:   # the fix: differentiate through the weights
                    terms.append(m.weight.abs().sum(dim=filter_dims(m)).sum())
                else:             # as reported: reuse the pruning criterion
                    terms.append(large_final(m, filter_dims(m)).sum())
        return self.wd * torch.stack(terms).sum()

    def after_loss(self, model, loss):
        return loss + self.get_norm(model)


class Learner:
    def __init__(self, model, cb):
        self.model, self.cb = model, cb
        self.opt = torch.optim.SGD(model.parameters(), lr=0.05)

    def one_batch(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss = self.cb.after_loss(self.model, loss)
        self.opt.zero_grad()
        loss.backward()
        return loss.item(), [p.grad.clone() for p in self.model.parameters()]


def make_model():
    torch.manual_seed(3)
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1),
                         nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4))


x, y = torch.randn(16, 3, 10, 10), torch.randint(0, 4, (16,))
loss_wd, g_wd = Learner(make_model(), RegularizationCallback(wd=0.01)).one_batch(x, y)
loss_0, g_0 = Learner(make_model(), RegularizationCallback(wd=0.0)).one_batch(x, y)
print(f"reported: loss with wd {loss_wd:.4f} / without {loss_0:.4f}")
assert loss_wd > loss_0 + 1e-3, "the term does add a number to the loss"
assert all(torch.equal(a, b) for a, b in zip(g_wd, g_0)), "but contributes no gradient"

loss_d, g_d = Learner(make_model(), RegularizationCallback(wd=0.01, direct=True)).one_batch(x, y)
diff = max((a - b).abs().max().item() for a, b in zip(g_d, g_0))
print(f"fixed: max grad difference caused by the regulariser {diff:.2e}")
assert diff > 1e-4
print("OK")

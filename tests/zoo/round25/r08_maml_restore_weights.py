"""
expect: GL005 46
dynamic: confirm
source: https://github.com/dragen1860/MAML-Pytorch/issues/9

In the thread a user writes MAML by saving the weights, taking a real inner
optimizer step per task, adding the query loss to a sum, and restoring the saved
weights with load_state_dict before the next task; the meta-update then did not
learn. Here the restore copies into the parameters in place while the summed query
losses still hold graphs that saved those parameters, so the meta backward fails
with the version-counter error. The asserts show that, and that a functional inner
step (torch.func.functional_call) gives a working meta-gradient.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)


def sine_task(n=10):
    amp, phase = torch.rand(1) * 4 + 1, torch.rand(1) * 3
    xs, xq = torch.rand(n, 1) * 10 - 5, torch.rand(n, 1) * 10 - 5
    return xs, amp * torch.sin(xs + phase), xq, amp * torch.sin(xq + phase)


class MetaLearner:
    def __init__(self, net, inner_lr=0.01, meta_lr=1e-3):
        self.net = net
        self.inner_lr = inner_lr
        self.inner_opt = torch.optim.SGD(net.parameters(), lr=inner_lr)
        self.meta_opt = torch.optim.Adam(net.parameters(), lr=meta_lr)

    def meta_step(self, tasks):
        origin = copy.deepcopy(self.net.state_dict())
        meta_loss = 0.0
        for xs, ys, xq, yq in tasks:
            self.inner_opt.zero_grad()
            F.mse_loss(self.net(xs), ys).backward()
            self.inner_opt.step()
            meta_loss = meta_loss + F.mse_loss(self.net(xq), yq)
            self.net.load_state_dict(origin)
        self.meta_opt.zero_grad()
        meta_loss.backward()
        self.meta_opt.step()

    def functional_meta_step(self, tasks):
        params = dict(self.net.named_parameters())
        meta_loss = 0.0
        for xs, ys, xq, yq in tasks:
            inner = F.mse_loss(functional_call(self.net, params, (xs,)), ys)
            grads = torch.autograd.grad(inner, list(params.values()), create_graph=True)
            fast = {k: v - self.inner_lr * g for (k, v), g in zip(params.items(), grads)}
            meta_loss = meta_loss + F.mse_loss(functional_call(self.net, fast, (xq,)), yq)
        self.meta_opt.zero_grad()
        meta_loss.backward()
        self.meta_opt.step()


net = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1))
tasks = [sine_task() for _ in range(4)]

learner = MetaLearner(copy.deepcopy(net))
failed = False
try:
    learner.meta_step(tasks)
except RuntimeError as e:
    failed = "modified by an inplace operation" in str(e)
assert failed

ok = MetaLearner(copy.deepcopy(net))
w0 = ok.net[2].weight.detach().clone()
ok.functional_meta_step(tasks)
assert ok.net[2].weight.grad.abs().sum() > 0
assert not torch.equal(ok.net[2].weight, w0)
print("ok")

"""expect: GL003 55
dynamic: error
source: https://github.com/dragen1860/MAML-Pytorch/issues/40

A MAML learner's `adapt()` takes inner gradient steps with `torch.autograd.grad` on the support loss. Meta-training works; the meta-test routine, written elsewhere, calls `adapt()` from inside `with torch.no_grad():` to "save memory", so the support loss has no history and the inner step raises "element 0 of tensors does not require grad and does not have a grad_fn", the error in the linked issue. Keyed GL001 by its writer; a function that backpropagates, called inside a no_grad region elsewhere, is GL003's (issue 13).
"""
import torch
import torch.nn.functional as F


class Learner:
    def __init__(self, inner_lr=0.1):
        torch.manual_seed(0)
        self.params = [(torch.randn(1, 16) * 0.3).requires_grad_(),
                       torch.zeros(16, requires_grad=True),
                       (torch.randn(16, 1) * 0.3).requires_grad_()]
        self.inner_lr = inner_lr

    @staticmethod
    def fwd(params, x):
        w1, b1, w2 = params
        return torch.tanh(x @ w1 + b1) @ w2

    def adapt(self, x, y, steps=2):
        params = list(self.params)
        for _ in range(steps):
            loss = F.mse_loss(self.fwd(params, x), y)
            grads = torch.autograd.grad(loss, params, create_graph=True)
            params = [p - self.inner_lr * g for p, g in zip(params, grads)]
        return params


def task(amp):
    x = torch.rand(10, 1) * 6 - 3
    return x, amp * torch.sin(x)


learner = Learner()
meta_opt = torch.optim.Adam(learner.params, lr=1e-3)
for amp in (0.5, 1.0, 2.0):
    xs, ys = task(amp)
    xq, yq = task(amp)
    fast = learner.adapt(xs, ys)
    meta_loss = F.mse_loss(Learner.fwd(fast, xq), yq)
    meta_opt.zero_grad()
    meta_loss.backward()
    meta_opt.step()
print("meta-train ok")


def meta_test(learner, amp):
    xs, ys = task(amp)
    xq, yq = task(amp)
    with torch.no_grad():
        fast = learner.adapt(xs, ys)
        return F.mse_loss(Learner.fwd(fast, xq), yq).item()


print("meta-test loss", meta_test(learner, 1.5))

"""
expect: GL004 82
dynamic: confirm
source: https://github.com/facebookresearch/higher/issues/10

In a discussion on a meta-learning library, a user traced a "memory leak" to the
differentiable optimizer: its momentum state (and the fast weights) persisted across
outer iterations still attached to the previous iterations' graphs, so each meta step
kept everything before it alive; their remedy was a detach_() of the optimizer state.
This program writes a small differentiable SGD-with-momentum whose buffers live on the
optimizer object; the outer loop needs `meta_loss.backward(retain_graph=True)` to run at
all. The asserts show the graph behind each meta loss grows with every outer step,
that plain backward() fails on the second step, and that the size stays constant when
the state is detached after each meta update.
"""
import torch
import torch.nn.functional as F

torch.set_num_threads(1)


def graph_size(t):
    if t.grad_fn is None:
        return 0
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class DiffMomentumSGD:
    """Unrolled optimizer: each step returns new fast weights that stay on the tape."""

    def __init__(self, shapes, lr=0.1, momentum=0.9):
        self.lr, self.momentum = lr, momentum
        self.state = [torch.zeros(s) for s in shapes]

    def step(self, loss, params):
        grads = torch.autograd.grad(loss, params, create_graph=True)
        new_params = []
        for i, (p, g) in enumerate(zip(params, grads)):
            buf = self.momentum * self.state[i] + g
            self.state[i] = buf
            new_params.append(p - self.lr * buf)
        return new_params

    def detach_state(self):
        self.state = [s.detach() for s in self.state]


def model(x, params):
    w, b = params
    return torch.tanh(x @ w + b)


def sample_task():
    a = torch.randn(4, 1)
    xs, xq = torch.randn(16, 4), torch.randn(16, 4)
    return (xs, torch.sin(xs @ a)), (xq, torch.sin(xq @ a))


def meta_train(outer_steps=5, detach_between=False, retain=True):
    torch.manual_seed(0)
    w = torch.nn.Parameter(torch.randn(4, 1) * 0.1)
    b = torch.nn.Parameter(torch.zeros(1))
    meta_opt = torch.optim.Adam([w, b], lr=1e-2)
    diffopt = DiffMomentumSGD([w.shape, b.shape])
    sizes = []
    for _ in range(outer_steps):
        (xs, ys), (xq, yq) = sample_task()
        fast = [w.clone(), b.clone()]
        for _ in range(2):
            fast = diffopt.step(F.mse_loss(model(xs, fast), ys), fast)
        meta_loss = F.mse_loss(model(xq, fast), yq)
        meta_opt.zero_grad()
        sizes.append(graph_size(meta_loss))
        if retain:
            meta_loss.backward(retain_graph=True)
        else:
            meta_loss.backward()
        meta_opt.step()
        if detach_between:
            diffopt.detach_state()
    return sizes


leaky = meta_train()
assert all(b > a for a, b in zip(leaky, leaky[1:])), leaky

steady = meta_train(detach_between=True)
assert len(set(steady)) == 1, steady

try:
    meta_train(retain=False)
    raise AssertionError("without retain_graph the carried state should hit freed buffers")
except RuntimeError as err:
    assert "second time" in str(err), err
print("p10 ok: differentiable-optimizer state drags every old meta step along", leaky)

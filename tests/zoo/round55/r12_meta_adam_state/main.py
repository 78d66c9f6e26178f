"""
expect: GL004 main.py:63
dynamic: confirm
source: https://github.com/metaopt/torchopt/issues/218

Online meta-learning of an inner learning rate (a hypergradient loop): the weights
of a small regression model are updated by a differentiable Adam (diffopt.py) for a
few unrolled steps, a validation loss is backpropagated to the log learning rate,
and the next window starts from the adapted weights, which the loop truncates with
detach(). As in the torchopt report, the optimizer's moment buffers are not
truncated: they still hold the graph of every earlier window. The second
meta-backward then needs the freed first graph, and the loop "works" only because
backward is called with retain_graph=True, so each window's graph is kept alive and
the next meta-backward walks all of them. The asserts count the autograd nodes
reachable from each meta-loss (strictly growing, and growing without bound), show
that a plain backward() raises the "backward through the graph a second time"
error on the second window, and that detaching the moments at the truncation
point keeps the graph size constant with no retain_graph.
"""
import torch
import torch.nn.functional as F

from diffopt import DifferentiableAdam

torch.manual_seed(0)
torch.set_num_threads(1)

D = 8
w_true = torch.randn(D)


def batch(n=64):
    x = torch.randn(n, D)
    return x, x @ w_true + 0.1 * torch.randn(n)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def meta_train_buggy(windows=6, unroll=3):
    log_lr = torch.nn.Parameter(torch.tensor(-3.0))
    meta_opt = torch.optim.Adam([log_lr], lr=0.05)
    inner = DifferentiableAdam()
    w = torch.zeros(D)
    sizes = []
    for _ in range(windows):
        params = [w.detach().requires_grad_()]
        for _ in range(unroll):
            x, y = batch()
            params = inner.step(params, F.mse_loss(x @ params[0], y), log_lr.exp())
        xv, yv = batch()
        meta_loss = F.mse_loss(xv @ params[0], yv)
        sizes.append(graph_size(meta_loss))
        meta_opt.zero_grad()
        meta_loss.backward(retain_graph=True)
        meta_opt.step()
        w = params[0]
    return sizes, log_lr


def meta_train_plain_backward(windows=2, unroll=3):
    log_lr = torch.nn.Parameter(torch.tensor(-3.0))
    meta_opt = torch.optim.Adam([log_lr], lr=0.05)
    inner = DifferentiableAdam()
    w = torch.zeros(D)
    for _ in range(windows):
        params = [w.detach().requires_grad_()]
        for _ in range(unroll):
            x, y = batch()
            params = inner.step(params, F.mse_loss(x @ params[0], y), log_lr.exp())
        xv, yv = batch()
        meta_loss = F.mse_loss(xv @ params[0], yv)
        meta_opt.zero_grad()
        meta_loss.backward()
        meta_opt.step()
        w = params[0]


def meta_train_fixed(windows=6, unroll=3):
    log_lr = torch.nn.Parameter(torch.tensor(-3.0))
    meta_opt = torch.optim.Adam([log_lr], lr=0.05)
    inner = DifferentiableAdam()
    w = torch.zeros(D)
    sizes = []
    for _ in range(windows):
        params = [w.detach().requires_grad_()]
        inner.detach_state()
        for _ in range(unroll):
            x, y = batch()
            params = inner.step(params, F.mse_loss(x @ params[0], y), log_lr.exp())
        xv, yv = batch()
        meta_loss = F.mse_loss(xv @ params[0], yv)
        sizes.append(graph_size(meta_loss))
        meta_opt.zero_grad()
        meta_loss.backward()
        meta_opt.step()
        w = params[0]
    return sizes, log_lr


sizes_bug, lr_bug = meta_train_buggy()
assert all(b > a for a, b in zip(sizes_bug, sizes_bug[1:])), sizes_bug
assert sizes_bug[-1] > 4 * sizes_bug[0], sizes_bug

try:
    meta_train_plain_backward()
    raised = False
except RuntimeError as e:
    raised = "second time" in str(e)
assert raised

sizes_fix, lr_fix = meta_train_fixed()
assert len(set(sizes_fix[1:])) == 1 and sizes_fix[-1] <= sizes_bug[0] + 2, sizes_fix
assert lr_fix.grad is not None and lr_fix.item() != -3.0
print("graph nodes per window, buggy:", sizes_bug)
print("graph nodes per window, fixed:", sizes_fix)

"""expect: none
dynamic: dismiss
source: https://github.com/learnables/learn2learn/blob/master/learn2learn/algorithms/maml.py

Second-order MAML on sine-wave regression, written functionally like
learn2learn's MAML.adapt(): inside the meta-training loop, every inner
adaptation step calls torch.autograd.grad(..., retain_graph=True,
create_graph=True) and builds fast weights as param - lr * grad. Retaining
and extending the graph is the point here: the meta-loss must differentiate
through the inner updates. Each meta-iteration starts again from the leaf
meta-parameters and the meta-loss graph is released by its backward(), so no
graph is carried from one meta-iteration to the next.
"""
import math

import torch
import torch.nn.functional as F


def init_params(hidden=10):
    def layer(n_in, n_out):
        w = torch.randn(n_out, n_in) * math.sqrt(2.0 / n_in)
        return [w.requires_grad_(), torch.zeros(n_out, requires_grad=True)]
    return layer(1, hidden) + layer(hidden, hidden) + layer(hidden, 1)


def forward(params, x):
    h = F.relu(F.linear(x, params[0], params[1]))
    h = F.relu(F.linear(h, params[2], params[3]))
    return F.linear(h, params[4], params[5])


def sample_task():
    amp, phase = torch.empty(1).uniform_(0.1, 5.0), torch.empty(1).uniform_(0, math.pi)
    def draw(n):
        x = torch.empty(n, 1).uniform_(-5, 5)
        return x, amp * torch.sin(x + phase)
    return draw


def adapt(params, x, y, inner_lr=0.01, steps=2):
    fast = params
    for _ in range(steps):
        loss = F.mse_loss(forward(fast, x), y)
        grads = torch.autograd.grad(loss, fast, retain_graph=True, create_graph=True)
        fast = [p - inner_lr * g for p, g in zip(fast, grads)]
    return fast


def graph_size(fn):
    seen, stack = set(), [fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return len(seen)


if __name__ == "__main__":
    torch.manual_seed(0)
    params = init_params()
    meta_opt = torch.optim.Adam(params, lr=1e-3)
    sizes = []
    for iteration in range(3):
        meta_opt.zero_grad()
        meta_loss = 0.0
        for _ in range(2):
            draw = sample_task()
            (xs, ys), (xq, yq) = draw(10), draw(10)
            fast = adapt(params, xs, ys)
            meta_loss = meta_loss + F.mse_loss(forward(fast, xq), yq)
        sizes.append(graph_size(meta_loss.grad_fn))
        meta_loss.backward()
        meta_opt.step()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in params)
    assert len(set(sizes)) == 1, sizes
    print("OK: second-order MAML retains the inner graph only within a meta-iteration", sizes[0])

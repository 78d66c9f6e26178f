"""
expect: none
dynamic: dismiss
source: https://github.com/oscarknagg/few-shot/issues/29

The question is about `loss.backward(retain_graph=True)` inside the MAML meta-batch loop of
few_shot/maml.py: what it is for, given nothing seems to use the retained graph later. This
program rebuilds that loop: for each task, a functional inner update with create_graph=True,
a query loss, and backward(retain_graph=True) to accumulate meta-gradients, then one meta
step. It is a look-alike: the flag is redundant but harmless, because each task builds a
fresh graph and nothing carries from one task or step to the next; the asserts show the
graph per task stays the same size across steps, the accumulated meta-gradient equals the one
from plain backward(), and the meta-parameters change.
"""
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def forward(params, x):
    w1, b1, w2, b2 = params
    return F.linear(torch.relu(F.linear(x, w1, b1)), w2, b2)


def make_params():
    g = torch.Generator().manual_seed(1)
    shapes = [(16, 1), (16,), (1, 16), (1,)]
    return [(torch.randn(*s, generator=g) * 0.3).requires_grad_() for s in shapes]


def tasks(n):
    out = []
    for _ in range(n):
        amp, phase = torch.rand(1) * 2 + 0.5, torch.rand(1) * 3
        xs, xq = torch.rand(5, 1) * 6 - 3, torch.rand(5, 1) * 6 - 3
        out.append((xs, amp * torch.sin(xs + phase), xq, amp * torch.sin(xq + phase)))
    return out


def meta_step(params, batch, keep_graph, sizes=None, inner_lr=0.1):
    for p in params:
        p.grad = None
    for xs, ys, xq, yq in batch:
        support_loss = F.mse_loss(forward(params, xs), ys)
        grads = torch.autograd.grad(support_loss, params, create_graph=True)
        fast = [p - inner_lr * g for p, g in zip(params, grads)]
        query_loss = F.mse_loss(forward(fast, xq), yq) / len(batch)
        if sizes is not None:
            sizes.append(graph_size(query_loss))
        if keep_graph:
            query_loss.backward(retain_graph=True)
        else:
            query_loss.backward()
    return [p.grad.clone() for p in params]


meta_batches = [tasks(4) for _ in range(3)]
params = make_params()
ref_params = make_params()
g_keep = meta_step(params, meta_batches[0], keep_graph=True)
g_plain = meta_step(ref_params, meta_batches[0], keep_graph=False)
assert all(torch.allclose(a, b) for a, b in zip(g_keep, g_plain))

opt = torch.optim.Adam(params, lr=1e-2)
start = [p.detach().clone() for p in params]
sizes = []
for batch in meta_batches * 2:
    opt.zero_grad()
    meta_step(params, batch, keep_graph=True, sizes=sizes)
    opt.step()
assert len(set(sizes)) == 1, sizes
assert all(not torch.equal(a, b) for a, b in zip(start, params))
print("ok: per-task graphs do not accumulate; retain_graph here is redundant, not leaking")

"""
expect: GL004 54
dynamic: confirm
source: https://github.com/rballester/tntorch/pull/19

tntorch's `optimize()` appended each iteration's loss (with its autograd graph) to a
`losses` list and then called `losses[-1].backward(retain_graph=True)`. Every iteration
keeps a whole tensor-train reconstruction graph, with its saved buffers, alive through the
list, so memory grows for as long as the optimizer runs; PR #19 ("Removed annoying memory
leak") backpropagates first and appends `total_loss.detach()`. The asserts count the
autograd nodes kept alive by the list: they grow by a fixed amount every iteration (no
graph is ever released), while the detached variant keeps no graph at all and still
converges.
"""
from functools import reduce
import torch

torch.set_num_threads(1)
torch.manual_seed(0)


class TT:
    def __init__(self, shape, ranks):
        r = [1] + list(ranks) + [1]
        self.cores = [torch.nn.Parameter(torch.randn(r[i], n, r[i + 1]) * 0.5)
                      for i, n in enumerate(shape)]

    def full(self):
        out = self.cores[0]
        for core in self.cores[1:]:
            out = torch.einsum("...a,anb->...nb", out, core)
        return out.squeeze(0).squeeze(-1)


def optimize(tensors, loss_function, optimizer=torch.optim.Adam, tol=1e-4, max_iter=40, lr=5e-2):
    params = [c for t in tensors for c in t.cores]
    opt = optimizer(params, lr=lr)
    losses = []
    it = 0
    while True:
        opt.zero_grad()
        loss = loss_function(*tensors)
        if not isinstance(loss, (tuple, list)):
            loss = [loss]
        losses.append(reduce(lambda x, y: x + y, loss))
        if len(losses) >= 2:
            delta_loss = losses[-1] - losses[-2]
        else:
            delta_loss = float("-inf")
        if it >= 2 and tol is not None and (losses[-1] <= tol or -delta_loss / losses[-1] <= tol):
            break
        if it == max_iter:
            break
        losses[-1].backward(retain_graph=True)
        opt.step()
        it += 1
    return losses


def graph_nodes(tensors):
    seen, stack = set(), [t.grad_fn for t in tensors if t.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)


target = torch.randn(4, 5, 6)
t = TT(target.shape, (3, 3))
losses = optimize([t], lambda x: ((x.full() - target) ** 2).mean(), tol=None)
kept = [graph_nodes(losses[:k]) for k in (5, 10, 20, 40)]
per_iter = (kept[1] - kept[0]) / 5
assert per_iter > 5 and abs((kept[3] - kept[2]) / 20 - per_iter) < 1e-6, kept


def optimize_fixed(tensors, loss_function, steps=40, lr=5e-2):
    opt = torch.optim.Adam([c for t in tensors for c in t.cores], lr=lr)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        total = loss_function(*tensors)
        total.backward()
        opt.step()
        losses.append(total.detach())
    return losses


t2 = TT(target.shape, (3, 3))
fixed = optimize_fixed([t2], lambda x: ((x.full() - target) ** 2).mean())
assert graph_nodes(fixed) == 0 and fixed[-1] < fixed[0]
print("p07 ok: retained loss graphs grow linearly", kept, "fixed keeps", graph_nodes(fixed))

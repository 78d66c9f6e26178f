"""
expect: none
dynamic: dismiss
source: https://discuss.pytorch.org/t/backpropagation-graph-is-reused-while-it-shouldnt/24554

The poster computed y = t @ a once and reused it in every loop iteration (x_out = t @ (x + y));
the second loss.backward() failed with "backward through the graph a second time" because the
y sub-graph is shared, and they asked whether retain_graph=True is the right fix. This program
rebuilds that as gradient accumulation over a few samples that share one precomputed projection:
each sample's loss backpropagates with retain_graph=True, and the single optimizer step comes
after the loop. The asserts show the graph per sample has a constant size (only the fixed prefix
is shared, nothing is carried between iterations), the accumulated gradient equals recomputing
y per sample, and the step reduces the loss.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class SharedPrefixModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.t = nn.Parameter(torch.eye(2) + 0.1 * torch.randn(2, 2))
        self.a = nn.Parameter(torch.ones(2))

    def prefix(self):
        return self.t @ self.a

    def head(self, x, y):
        return self.t @ (x + y)


measure = nn.MSELoss()
samples = [torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0]), torch.tensor([0.5, -0.5])]


def accumulate(model, reuse_y):
    model.zero_grad()
    sizes, total = [], 0.0
    y = model.prefix()
    for x in samples:
        if not reuse_y:
            y = model.prefix()
        loss = measure(model.head(x, y), x)
        sizes.append(graph_size(loss))
        loss.backward(retain_graph=True)
        total += loss.item()
    return sizes, total


model = SharedPrefixModel()
ref = SharedPrefixModel()
ref.load_state_dict(model.state_dict())

sizes, loss_before = accumulate(model, reuse_y=True)
assert len(set(sizes)) == 1, sizes
accumulate(ref, reuse_y=False)
assert torch.allclose(model.t.grad, ref.t.grad) and torch.allclose(model.a.grad, ref.a.grad)

opt = torch.optim.SGD(model.parameters(), lr=0.05)
opt.step()
_, loss_after = accumulate(model, reuse_y=True)
assert loss_after < loss_before
print("ok: retain_graph over a shared fixed prefix; graph size constant", sizes)

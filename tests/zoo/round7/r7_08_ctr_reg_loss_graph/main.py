"""expect: GL004 57
dynamic: confirm
source: https://github.com/shenweichen/DeepCTR-Torch/issues/69

DeepCTR-Torch (click-through-rate models) called
`total_loss.backward(retain_graph=True)` inside its fit() loop; an issue
asked why, and the answer was that `total_loss = loss + self.reg_loss` and
reg_loss "uses the graph weight". The regulariser was built once, in the
model's __init__ (ctr_model.py here), so the same autograd graph is carried
into every training iteration and must be retained forever. The graph keeps
values saved at construction (the weight norms), so the L2 gradient applied
at every step is computed from stale saved values (with today's optimisers,
which bump the version counter, it even fails the version check). Fix:
recompute the regularisation term from the parameters on every step (which
is what the maintainers later did), and drop retain_graph.
"""
import torch
import torch.nn.functional as F

from ctr_model import CTRBaseModel


class LegacySGD(torch.optim.Optimizer):
    """SGD written the way torch.optim.SGD updated parameters in 2019 (via .data)."""

    def __init__(self, params, lr):
        super().__init__(params, dict(lr=lr))

    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    p.data.add_(p.grad.data, alpha=-group["lr"])


def reaches(root, target):
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        if node is target:
            return True
        seen.add(node)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return False


def fit(model, optim, batches):
    carried = []
    for x, y in batches:
        y_pred = model(x)
        optim.zero_grad()
        loss = F.binary_cross_entropy(y_pred, y, reduction="sum")
        total_loss = loss + model.reg_loss
        carried.append(reaches(total_loss.grad_fn, model.reg_loss.grad_fn))
        total_loss.backward(retain_graph=True)
        optim.step()
    return carried


torch.manual_seed(0)
field_dims = [10, 7, 5]
model = CTRBaseModel(field_dims)
emb = model.embedding_dict["f0"].weight
emb_at_init = emb.detach().clone()
reg_node = model.reg_loss.grad_fn
batches = [(torch.stack([torch.randint(0, n, (32,)) for n in field_dims], 1),
            torch.randint(0, 2, (32,)).float()) for _ in range(6)]

carried = fit(model, LegacySGD(model.parameters(), lr=0.05), batches)

# the graph built in __init__ is part of every iteration's loss graph
assert all(carried) and model.reg_loss.grad_fn is reg_node
# the weights moved, but the regulariser's gradient still uses the norm saved at
# construction time: d||w||/dw is evaluated as w_now / ||w_init||, not w_now / ||w_now||
assert not torch.allclose(emb, emb_at_init)
stale, = torch.autograd.grad(model.reg_loss, [emb])
wd, w_now = 1e-2, emb.detach()
assert torch.allclose(stale, wd * w_now / emb_at_init.norm())
assert not torch.allclose(stale, wd * w_now / w_now.norm())
print("OK")

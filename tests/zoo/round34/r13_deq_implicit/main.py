"""
expect: none
dynamic: dismiss
source: https://github.com/locuslab/deq/issues/11

The locuslab/deq issue compares the implicit-layers tutorial's DEQ layer with
the repo's version. The layer solves the fixed point under torch.no_grad(),
re-attaches one call of f to the tape, and builds z0 = z.clone().detach()
.requires_grad_() only to take vector-Jacobian products inside a backward hook.
None of that cuts the parameters off: the asserts check every parameter of the
cell gets a gradient that matches plain backprop through a long unrolled solve,
and that a few Adam steps lower the loss.
"""
import torch
import torch.nn as nn

from deq import Cell, DEQLayer, fixed_point_iter

torch.manual_seed(0)
torch.set_num_threads(1)

n = 6
cell = Cell(n)
layer = DEQLayer(cell)
head = nn.Linear(n, 1)
x = torch.randn(16, n)
y = torch.randn(16, 1)

loss = ((head(layer(x)) - y) ** 2).mean()
loss.backward()
implicit = [p.grad.clone() for p in cell.parameters()]
assert all(g.abs().sum() > 0 for g in implicit)

# reference: backprop through the unrolled solver
cell.zero_grad()
head.zero_grad()
z = fixed_point_iter(lambda z: cell(z, x), torch.zeros_like(x), iters=80)
ref_loss = ((head(z) - y) ** 2).mean()
ref_loss.backward()
for gi, p in zip(implicit, cell.parameters()):
    assert torch.allclose(gi, p.grad, atol=1e-4), (gi - p.grad).abs().max()

params = list(cell.parameters()) + list(head.parameters())
opt = torch.optim.Adam(params, lr=0.02)
first = None
for _ in range(30):
    opt.zero_grad()
    l = ((head(layer(x)) - y) ** 2).mean()
    l.backward()
    opt.step()
    first = first if first is not None else l.item()
assert l.item() < first
print("ok: implicit grads match unrolled grads; loss", first, "->", l.item())

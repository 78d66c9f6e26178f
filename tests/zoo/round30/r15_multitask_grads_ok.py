"""
expect: none
dynamic: dismiss
source: https://github.com/Cranial-XIX/CAGrad/issues/2

CAGrad-style multi-task step: one shared forward, then a loop over task losses
calling backward(retain_graph=True) to collect each task's gradient on the shared
weights, then a combined update. retain_graph is needed because the tasks share
one graph; the graph is rebuilt every step and nothing is carried between steps,
so memory stays flat (the issue's OOM was just model size). Asserts: per-task
grads differ, the shared weights train, and the last graph is freed.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

shared = nn.Sequential(nn.Linear(6, 16), nn.ReLU())
heads = nn.ModuleList([nn.Linear(16, 1) for _ in range(3)])
opt = torch.optim.SGD(list(shared.parameters()) + list(heads.parameters()), lr=0.05)
params = list(shared.parameters())


def task_grads(losses):
    grads = []
    for i, loss in enumerate(losses):
        opt.zero_grad()
        loss.backward(retain_graph=(i < len(losses) - 1))
        grads.append(torch.cat([p.grad.flatten().clone() for p in params]))
    return torch.stack(grads)


x, ys = torch.randn(32, 6), [torch.randn(32, 1) for _ in range(3)]
w0 = shared[0].weight.detach().clone()
for step in range(5):
    feats = shared(x)
    losses = [nn.functional.mse_loss(h(feats), y) for h, y in zip(heads, ys)]
    G = task_grads(losses)
    g = G.mean(dim=0)
    # apply the averaged shared gradient (each head keeps its own task's grad)
    offset = 0
    for p in params:
        n = p.numel()
        p.grad = g[offset:offset + n].view_as(p).clone()
        offset += n
    opt.step()

assert not torch.allclose(G[0], G[1])
assert not torch.equal(shared[0].weight, w0)
err = None
try:
    losses[-1].backward()
except RuntimeError as e:
    err = str(e)
assert err is not None and "second time" in err   # the graph was released at the end
print("ok: retain_graph inside one step's task loop is fine")

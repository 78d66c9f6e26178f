"""
expect: GL001 lwf.py:42
dynamic: confirm
source: https://github.com/ContinualAI/avalanche/issues/1116

A continual-learning library's LwF plugin wraps the whole penalty set-up in
torch.no_grad(). For single-head models it reuses the current output computed
outside, but for multi-task models it re-runs the current model inside the
block, so y_curr has no history; the maintainer confirms the bug. Here the
same plugin lives in lwf.py and a two-task trainer adds its penalty. Training
runs, but the asserts show the trunk's gradient is identical with the LwF
weight at 0 and at 50, while computing y_curr outside the block changes it.
"""
import torch
import torch.nn.functional as F

from lwf import LwFPlugin, MultiHeadNet, distillation

torch.manual_seed(0)
torch.set_num_threads(1)

x_a, y_a = torch.randn(64, 10), torch.randint(0, 3, (64,))
x_b, y_b = torch.randn(64, 10) + 1.0, torch.randint(0, 3, (64,))

model = MultiHeadNet()
model.add_head(0, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(20):                                  # experience 0
    opt.zero_grad()
    F.cross_entropy(model(x_a, 0), y_a).backward()
    opt.step()

plugin = LwFPlugin()
plugin.after_experience(model)
model.add_head(1, 3)                                 # experience 1 starts
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(10):
    opt.zero_grad()
    out = model(x_b, 1)
    (F.cross_entropy(out, y_b) + plugin.penalty(out, x_b, model)).backward()
    opt.step()


def trunk_grad(alpha, fixed=False):
    model.zero_grad()
    plugin.alpha = alpha
    out = model(x_b, 1)
    if fixed:
        prev = plugin.prev_model.forward_all(x_b)
        curr = model.forward_all(x_b)
        pen = alpha * sum(distillation(curr[k], prev[k].detach(), 2.0) for k in prev)
    else:
        pen = plugin.penalty(out, x_b, model)
    (F.cross_entropy(out, y_b) + pen).backward()
    return model.trunk[0].weight.grad.clone(), pen


g0, _ = trunk_grad(0.0)
g50, pen = trunk_grad(50.0)
assert pen.item() > 0 and not pen.requires_grad
assert torch.allclose(g0, g50), "LwF penalty reached the trunk?"

g50_fixed, pen_fixed = trunk_grad(50.0, fixed=True)
assert pen_fixed.requires_grad
assert not torch.allclose(g0, g50_fixed)
print("LwF inside no_grad: penalty", pen.item(), "has no effect on the trunk gradient")

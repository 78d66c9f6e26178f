"""
expect: GL001 bcl.py:52
dynamic: confirm
source: https://github.com/ProtikNag/Balanced-Continual-Learning/blob/127fd789365b88db592ff29bbcd14399194fef58/bcl_model.py

Balanced continual learning (a min-max game between "generalisation" and "forgetting"
players). The forgetting player is meant to add J(theta) - J(theta + zeta), the loss
increase after a few parameter steps, so that the current weights are pushed toward
regions where such steps do not forget. The original code gets theta + zeta by
`temp_model = copy.deepcopy(self.model)` and a separate optimizer; the deep copy has its
own leaf parameters, so `criterion(temp_model(data), target)` is a constant for the real
model: the forgetting term's gradient is exactly the gradient of J(theta) alone, and the
parameter-perturbation player has no effect on training. The asserts compare gradients
(forget term vs. J_PN_theta alone: identical), confirm training still runs across two
tasks, and show that keeping theta' as a function of theta (functional_call) changes
the gradient.
"""
import torch
import torch.nn as nn

from bcl import BCLModel, forget_term_through_theta

torch.manual_seed(0)
torch.set_num_threads(1)


def make_task(shift, n=32):
    g = torch.Generator().manual_seed(10 + shift)
    x = torch.randn(n, 6, generator=g) + shift
    y = (x[:, 0] > shift).long() + 2 * shift
    return x, y


model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 2))
bcl = BCLModel(model)
x0, y0 = make_task(0)
for _ in range(5):
    bcl.update_model(x0, y0)
bcl.task_count = 1
x1, y1 = make_task(1)

params = list(model.parameters())
terms = bcl.compute_losses(x1, y1)
g_forget = torch.autograd.grad(terms["forget"], params, retain_graph=True)
g_theta = torch.autograd.grad(terms["J_PN_theta"], params, retain_graph=True)
for a, b in zip(g_forget, g_theta):
    assert torch.allclose(a, b), "the copied model leaked a gradient"
assert abs(terms["forget"].item() - terms["J_PN_theta"].item()) > 1e-6  # value differs, gradient does not

# training over the second task runs without any complaint
before = [p.detach().clone() for p in params]
for _ in range(5):
    bcl.update_model(x1, y1)
assert any(not torch.equal(a, p) for a, p in zip(before, params))

# theta' kept as a function of theta: the forgetting term now has its own gradient
fixed = forget_term_through_theta(model, x1, y1, lr=bcl.lr, steps=bcl.theta_updates)
plain = nn.CrossEntropyLoss()(model(x1), y1 % 2)
g_fixed = torch.autograd.grad(fixed, params)
g_plain = torch.autograd.grad(plain, params)
gap = max((a - b).abs().max().item() for a, b in zip(g_fixed, g_plain))
assert gap > 1e-6, gap
print("r05 ok: deep-copied forgetting term == J(theta) gradient; functional version differs by %.2e" % gap)

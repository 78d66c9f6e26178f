"""
expect: GL001 35
dynamic: confirm
source: https://github.com/thomas-woehrle/maml_tryout/blob/d77796c24a7a205c8f483923b51f23b9854a0bce/maml.py#L10

First try at second-order MAML for Omniglot in this repository: to run the
nn.Sequential with a given list of weights theta (the meta-parameters, or the
task-adapted weights theta_i = theta - alpha * grad), forward() loops over
net.parameters() and does `param.data = theta[layer_idx]`, with the comment
"does this break backpropagation ? -> no should work". It does break it: .data
copies the values into the module's parameters, so the network computes with
the adapted numbers but the record never contains theta_i, the inner gradient
step, or its second-order term; the test loss is differentiated with respect to
the module parameters only, and since theta *is* net.parameters(), every task
also overwrites the meta-initialisation with its adapted values. (The author's
next commit adds "THIS BREAKS THE COMPUTATION GRAPH, I WAS FOOLED" and switches
to a functional forward.) The asserts show that the adapted weights receive no
gradient from the test loss, that the meta-parameters have been overwritten by
the adapted values, and that the resulting "meta-gradient" is just the
first-order gradient at the adapted point; the functional forward keeps the
adapted weights in the graph, leaves the meta-parameters intact and yields the
true second-order MAML gradient, which differs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)


def forward(net, theta, x):
    for layer_idx, param in enumerate(net.parameters()):
        param.data = theta[layer_idx]
    return net(x)


def forward_functional(net, theta, x):
    names = [n for n, _ in net.named_parameters()]
    return functional_call(net, dict(zip(names, theta)), (x,))


def compute_adapted_theta(fwd, net, theta, x, y, alpha):
    train_loss = F.mse_loss(fwd(net, theta, x), y)
    grads = torch.autograd.grad(train_loss, theta, create_graph=True)   # second order
    return [p - alpha * g for p, g in zip(theta, grads)]


def sine_task(gen):
    amp = torch.rand(1, generator=gen) * 4 + 1
    phase = torch.rand(1, generator=gen) * 3

    def draw(n):
        x = torch.rand(n, 1, generator=gen) * 10 - 5
        return x, amp * torch.sin(x + phase)
    return draw


def make_net():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1))


ALPHA = 0.01
draw = sine_task(torch.Generator().manual_seed(3))
xs, ys = draw(10)
xq, yq = draw(10)

# --- buggy: .data forward ----------------------------------------------------
net = make_net()
theta = [p for p in net.parameters()]            # meta-parameters are the module's parameters
theta_init = [p.detach().clone() for p in theta]
theta_i = compute_adapted_theta(forward, net, theta, xs, ys, ALPHA)
test_loss = F.mse_loss(forward(net, theta_i, xq), yq)
g_adapted = torch.autograd.grad(test_loss, theta_i, retain_graph=True, allow_unused=True)
assert all(g is None for g in g_adapted), "adapted weights are not in the graph"
assert all(torch.allclose(p.detach(), t.detach()) for p, t in zip(theta, theta_i)), "meta-params overwritten"
assert any(not torch.equal(p.detach(), t0) for p, t0 in zip(theta, theta_init))
meta_grad_bug = torch.autograd.grad(test_loss, theta)

# --- fixed: functional forward -------------------------------------------------
net_f = make_net()
theta_f = [p for p in net_f.parameters()]
theta_i_f = compute_adapted_theta(forward_functional, net_f, theta_f, xs, ys, ALPHA)
test_loss_f = F.mse_loss(forward_functional(net_f, theta_i_f, xq), yq)
g_adapted_f = torch.autograd.grad(test_loss_f, theta_i_f, retain_graph=True)
assert all(g is not None for g in g_adapted_f)
assert all(torch.equal(p.detach(), t0) for p, t0 in zip(theta_f, theta_init)), "meta-params intact"
meta_grad = torch.autograd.grad(test_loss_f, theta_f)

# the buggy meta-gradient is the first-order one (dL/dtheta_i evaluated at theta_i) ...
assert all(torch.allclose(a, b, atol=1e-5) for a, b in zip(meta_grad_bug, g_adapted_f))
# ... while true MAML carries the second-order correction through the inner step
diff = max((a - b).abs().max().item() for a, b in zip(meta_grad_bug, meta_grad))
assert diff > 1e-3, diff
print(".data forward: adapted weights get no gradient, meta-params overwritten; "
      "second-order term missing (max |diff| = %.4f)" % diff)

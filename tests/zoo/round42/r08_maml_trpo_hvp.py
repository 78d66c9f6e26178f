"""
expect: none
dynamic: dismiss
source: https://github.com/tristandeleu/pytorch-maml-rl/pull/13

The meta-update of MAML-TRPO solves F x = g with conjugate gradient, where F is the Fisher (Hessian of the KL
between the old and the adapted policy) and each CG iteration needs a Hessian-vector product. The pull request
computes the KL gradient once with create_graph=True, outside the product closure, and then calls
torch.autograd.grad(grad_kl_v, params, retain_graph=True) inside the closure on every CG iteration. Here
retain_graph=True is needed: every product backpropagates through the same first-order graph, which must
survive all iterations, and the graph is built once per meta-update, so nothing accumulates across
iterations or updates. The asserts show that the products match a double-backward reference, that CG
converges, that dropping retain_graph breaks the second product, and that the graph size is the same for
every meta-update.
"""
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

torch.manual_seed(0)
torch.set_num_threads(1)

policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3))
params = list(policy.parameters())


def kl_divergence(obs, old_logits):
    new_logp = torch.log_softmax(policy(obs), -1)
    old_logp = torch.log_softmax(old_logits, -1)
    return (old_logp.exp() * (old_logp - new_logp)).sum(-1).mean()


def hessian_vector_product(obs, old_logits, damping=0.1):
    kl = kl_divergence(obs, old_logits)
    grads = torch.autograd.grad(kl, params, create_graph=True)
    flat_grad_kl = parameters_to_vector(grads)

    def _product(vector):
        grad_kl_v = torch.dot(flat_grad_kl, vector)
        grad2s = torch.autograd.grad(grad_kl_v, params, retain_graph=True)
        return parameters_to_vector(grad2s) + damping * vector

    return _product, flat_grad_kl


def conjugate_gradient(f_Ax, b, iters=10):
    x = torch.zeros_like(b)
    r, p = b.clone(), b.clone()
    rdotr = r @ r
    for _ in range(iters):
        z = f_Ax(p)
        alpha = rdotr / (p @ z)
        x += alpha * p
        r -= alpha * z
        new_rdotr = r @ r
        p = r + (new_rdotr / rdotr) * p
        rdotr = new_rdotr
    return x


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        f = stack.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        stack.extend(g for g, _ in f.next_functions)
    return len(seen)


sizes = []
for update in range(3):
    obs = torch.randn(32, 4)
    with torch.no_grad():
        old_logits = policy(obs) + 0.3 * torch.randn(32, 3)
    product, flat_grad_kl = hessian_vector_product(obs, old_logits)
    sizes.append(graph_size(flat_grad_kl))

    v = torch.randn(flat_grad_kl.numel())
    ref = parameters_to_vector(torch.autograd.grad(
        torch.dot(parameters_to_vector(torch.autograd.grad(kl_divergence(obs, old_logits), params, create_graph=True)), v),
        params)) + 0.1 * v
    assert torch.allclose(product(v), ref, atol=1e-5)

    g = torch.randn(flat_grad_kl.numel())
    step = conjugate_gradient(product, g, iters=60)
    residual = (product(step) - g).norm() / g.norm()
    assert residual < 1e-2, residual.item()
    with torch.no_grad():
        vector_to_parameters(parameters_to_vector(params) - 1e-3 * step, params)

assert len(set(sizes)) == 1

# without retain_graph the first product frees the KL-gradient graph
obs = torch.randn(32, 4)
with torch.no_grad():
    old_logits = policy(obs) + 0.3 * torch.randn(32, 3)
flat = parameters_to_vector(torch.autograd.grad(kl_divergence(obs, old_logits), params, create_graph=True))
u = torch.randn(flat.numel())
torch.autograd.grad(torch.dot(flat, u), params)
try:
    torch.autograd.grad(torch.dot(flat, u), params)
    second_ok = True
except RuntimeError:
    second_ok = False
assert not second_ok
print("HVP matches reference, CG residual %.2e, graph size %d for each meta-update" % (residual.item(), sizes[0]))

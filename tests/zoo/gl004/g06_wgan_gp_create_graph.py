"""source: https://github.com/caogang/wgan-gp/issues/9

WGAN-GP critic update: the gradient penalty takes torch.autograd.grad of the critic
output w.r.t. interpolated samples with create_graph=True and retain_graph=True so
the penalty itself can be backpropagated.  Real, fake and interpolated batches are
fresh every iteration (the fake batch is detached from G), so the graph does not
grow across iterations.
"""
import torch
import torch.nn as nn


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            todo.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
D = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 1))
opt_d = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.5, 0.9))
sizes = []
for it in range(5):
    real = torch.randn(64, 2) + 2.0
    fake = G(torch.randn(64, 4)).detach()
    alpha = torch.rand(64, 1)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    d_interp = D(interp)
    grads = torch.autograd.grad(outputs=d_interp, inputs=interp,
                                grad_outputs=torch.ones_like(d_interp),
                                create_graph=True, retain_graph=True)[0]
    penalty = 10.0 * ((grads.norm(2, dim=1) - 1) ** 2).mean()
    d_loss = D(fake).mean() - D(real).mean() + penalty
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    sizes.append(graph_size(d_loss))

assert len(set(sizes)) == 1, sizes
print("graph constant:", sizes)
